import Foundation
import Testing
@testable import DossierRecords

@Suite("The species table: names in Korean, English and Latin lead to one canonical entry")
struct SpeciesTableTests {
    static let table = SpeciesTable.builtIn

    static func species(_ text: String, in table: SpeciesTable = table) -> String? { table.match(text)?.entry.species }

    @Test("The built-in table is a seed of 20 to 40 species with Latin binomials, one entry each")
    func builtIn() {
        let entries = Self.table.entries
        #expect((20...40).contains(entries.count))
        #expect(entries.count == 40)
        #expect(Set(entries.map { $0.species.lowercased() }).count == entries.count)
        for entry in entries {
            let words = entry.species.split(separator: " ")
            #expect(words.count == 2 && words[0].first!.isUppercase && words[1].allSatisfy(\.isLowercase), "\(entry.species)")
            #expect(["reptile", "amphibian", "arthropod", "mammal", "bird", "fish"].contains(entry.animalClass))
            #expect(entry.commonNames != nil)
            #expect(entry.subspecies.allSatisfy { $0.hasPrefix(entry.species + " ") }, "\(entry.species)")
            // Every name leads back to its own entry: no name is shared by two species.
            for name in entry.names + entry.subspecies { #expect(Self.species(name) == entry.species, "\(name)") }
        }
        #expect(Self.table.entries.first { $0.species == "Eublepharis macularius" }?.commonNames
            == LocalizedName(ko: "레오파드 게코", en: "Leopard gecko"))
    }

    @Test("Korean, English and Latin names, nicknames and older Latin names all match")
    func names() {
        let cases: [(String, String)] = [
            ("레게", "Eublepharis macularius"), ("Leopard Gecko", "Eublepharis macularius"),
            ("eublepharis macularius", "Eublepharis macularius"), ("레오파드 게코", "Eublepharis macularius"),
            ("크레", "Correlophus ciliatus"), ("크레스티드 게코", "Correlophus ciliatus"),
            ("Rhacodactylus ciliatus", "Correlophus ciliatus"), ("볼파이톤", "Python regius"),
            ("Elaphe guttata", "Pantherophis guttatus"), ("옥수수뱀", "Pantherophis guttatus"),
            ("비어디", "Pogona vitticeps"), ("블루텅", "Tiliqua scincoides"), ("우파루파", "Ambystoma mexicanum"),
            ("팩맨", "Ceratophrys cranwelli"), ("Brachypelma hamorii", "Brachypelma hamorii"),
            ("Brachypelma albopilosum", "Tliltocatl albopilosus"), ("고슴도치", "Atelerix albiventris"),
            ("정글리안", "Phodopus sungorus"), ("왕관앵무", "Nymphicus hollandicus"),
        ]
        for (text, species) in cases { #expect(Self.species(text) == species, "\(text)") }
    }

    @Test("Case, spacing, hyphens and Unicode normal form do not matter")
    func insensitive() {
        for text in ["LEOPARD GECKO", "leopard-gecko", "  Leopard   gecko ", "leopardgecko", "Leopard\u{2010}Gecko",
                     "EUBLEPHARIS_MACULARIUS", "레오파드게코", "레오파드 - 게코",
                     "레오파드 게코".decomposedStringWithCanonicalMapping] {
            #expect(Self.species(text) == "Eublepharis macularius", "\(text)")
        }
    }

    @Test("A species with a morph after or before it, in Hangul or English, gives the canonical morph")
    func speciesAndMorph() {
        let cases: [(String, String, String)] = [
            ("레오파드 게코 마크스노우", "Eublepharis macularius", "Mack Snow"),
            ("레게 맥스노우", "Eublepharis macularius", "Mack Snow"),
            ("Leopard Gecko Tremper Albino", "Eublepharis macularius", "Tremper Albino"),
            ("Mack Snow Leopard Gecko", "Eublepharis macularius", "Mack Snow"),
            ("크레 릴리 화이트", "Correlophus ciliatus", "Lilly White"),
            ("볼파이톤 파스텔", "Python regius", "Pastel"),
            ("Python regius Piebald", "Python regius", "Piebald"),
            ("우파루파 루시", "Ambystoma mexicanum", "Leucistic"),
        ]
        for (text, species, morph) in cases {
            #expect(Self.table.match(text).map { [$0.entry.species, $0.subspecies, $0.morph] }
                == [species, nil, morph], "\(text)")
        }
    }

    @Test("Subspecies match by trinomial or alias, alone or after the species, with a morph after")
    func subspecies() {
        let cases: [(String, String, String, String?)] = [
            ("Tiliqua scincoides intermedia", "Tiliqua scincoides", "Tiliqua scincoides intermedia", nil),
            ("노던 블루텅", "Tiliqua scincoides", "Tiliqua scincoides intermedia", nil),
            ("블루텅 intermedia", "Tiliqua scincoides", "Tiliqua scincoides intermedia", nil),
            ("메라우케", "Tiliqua gigas", "Tiliqua gigas evanescens", nil),
            ("붉은귀거북", "Trachemys scripta", "Trachemys scripta elegans", nil),
            ("노던 블루텅 하이포", "Tiliqua scincoides", "Tiliqua scincoides intermedia", "Hypomelanistic"),
            ("블루텅 intermedia 하이포", "Tiliqua scincoides", "Tiliqua scincoides intermedia", "Hypomelanistic"),
        ]
        for (text, species, subspecies, morph) in cases {
            let found = Self.table.match(text)
            #expect(found.map { [$0.entry.species, $0.subspecies, $0.morph] } == [species, subspecies, morph], "\(text)")
        }
    }

    @Test("Unknown names, blank text and a species followed by an unknown morph match nothing")
    func noMatch() {
        for text in ["", "   ", "고양이", "Felis catus", "레오파드 게코 신품종", "레게레게", "마크스노우"] {
            #expect(Self.table.match(text) == nil, "\(text)")
        }
    }

    @Test("A keeper's additions add names, subspecies and morphs to a species, or add a species")
    func merging() {
        let additions = [
            SpeciesEntry(animalClass: "reptile", species: "eublepharis  macularius", aliases: ["레오", "레게"],
                         morphs: ["Sunglow", "마크스노우", "MACK SNOW"], morphAliases: ["Sunglow": ["선글로우"]]),
            SpeciesEntry(animalClass: "Reptiles", species: "Leopard Gecko", morphs: ["Galaxy"]),
            SpeciesEntry(animalClass: "파충류", species: "Uroplatus phantasticus",
                         commonNames: LocalizedName(ko: "사탄 리프테일 게코", en: "Satanic leaf-tailed gecko"),
                         aliases: ["사탄리프", ""]),
        ]
        let table = Self.table.merging(additions)
        #expect(table.entries.count == Self.table.entries.count + 1)
        let leopard = table.entries.first { $0.species == "Eublepharis macularius" }!
        let before = Self.table.entries.first { $0.species == "Eublepharis macularius" }!
        #expect(leopard.aliases == before.aliases + ["레오"])
        #expect(leopard.morphs == before.morphs + ["Sunglow", "Galaxy"])
        #expect(leopard.morphAliases["Sunglow"] == ["선글로우"])
        #expect(leopard.morphAliases["Mack Snow"] == ["마크스노우", "맥스노우"])
        #expect(table.match("레오 선글로우") == SpeciesMatch(entry: leopard, morph: "Sunglow"))
        #expect(table.entries.last == SpeciesEntry(
            animalClass: "reptile", species: "Uroplatus phantasticus",
            commonNames: LocalizedName(ko: "사탄 리프테일 게코", en: "Satanic leaf-tailed gecko"), aliases: ["사탄리프"]))
        #expect(Self.species("사탄리프", in: table) == "Uroplatus phantasticus")
        // The built-in table is a value: merging made a new one.
        #expect(Self.table.match("레오") == nil)
    }

    @Test("A name two species share matches neither; a Latin name outranks anyone's alias")
    func ambiguity() {
        let table = Self.table.merging([
            SpeciesEntry(animalClass: "reptile", species: "Tiliqua rugosa", aliases: ["블루텅", "Tiliqua scincoides"]),
        ])
        #expect(table.match("블루텅") == nil)
        #expect(Self.species("Tiliqua scincoides", in: table) == "Tiliqua scincoides")
        #expect(Self.species("Tiliqua rugosa", in: table) == "Tiliqua rugosa")
    }

    @Test("normalise gives canonical values where the table knows them and keeps the rest as given")
    func normalise() {
        typealias Fields = (animalClass: String?, species: String?, subspecies: String?, morph: String?)
        let cases: [(Fields, Fields)] = [
            ((nil, "레게", nil, "마크스노우"), ("reptile", "Eublepharis macularius", nil, "Mack Snow")),
            (("amphibian", "leopard gecko", nil, "My Own Morph"), ("reptile", "Eublepharis macularius", nil, "My Own Morph")),
            ((nil, "레오파드 게코 마크스노우", nil, nil), ("reptile", "Eublepharis macularius", nil, "Mack Snow")),
            ((nil, "레오파드 게코 마크스노우", nil, "트렘퍼"), ("reptile", "Eublepharis macularius", nil, "Tremper Albino")),
            (("Reptile", "블루텅", "intermedia", "hypo"),
             ("reptile", "Tiliqua scincoides", "Tiliqua scincoides intermedia", "Hypomelanistic")),
            ((nil, "블루텅", "Irian Jaya", nil), ("reptile", "Tiliqua scincoides", "Irian Jaya", nil)),
            ((nil, nil, "붉은귀거북", nil), ("reptile", "Trachemys scripta", "Trachemys scripta elegans", nil)),
            ((" 파충류 ", " Uroplatus sikorae ", " ", "x"), ("reptile", "Uroplatus sikorae", nil, "x")),
            (("Vogel", "Unknownus", nil, nil), ("Vogel", "Unknownus", nil, nil)),
            ((nil, nil, nil, nil), (nil, nil, nil, nil)),
        ]
        for (given, expected) in cases {
            let result = Self.table.normalise(animalClass: given.animalClass, species: given.species,
                                              subspecies: given.subspecies, morph: given.morph)
            #expect([result.animalClass, result.species, result.subspecies, result.morph]
                == [expected.animalClass, expected.species, expected.subspecies, expected.morph], "\(given)")
        }
    }

    @Test("Merging the same additions again changes nothing, so an import can tell it had nothing new")
    func idempotent() {
        let additions = SpeciesTable.entries(fromTaxonomy: [
            "Reptiles": ["Leopard Gecko": ["Normal", "Sunglow"], "Uroplatus phantasticus": [String]()] as [String: Any],
        ]) + [SpeciesEntry(animalClass: "reptile", species: "Leopard Gecko", aliases: ["레오"], morphAliases: ["Sunglow": ["선글로우"]])]
        let once = SpeciesTable(entries: additions).entries
        #expect(once == [
            SpeciesEntry(animalClass: "reptile", species: "Leopard Gecko", aliases: ["레오"], morphs: ["Normal", "Sunglow"],
                         morphAliases: ["Sunglow": ["선글로우"]]),
            SpeciesEntry(animalClass: "reptile", species: "Uroplatus phantasticus"),
        ])
        #expect(SpeciesTable(entries: once).merging(additions).entries == once)
        let withBuiltIn = Self.table.merging(additions)
        #expect(withBuiltIn.merging(additions).entries == withBuiltIn.entries)
        #expect(withBuiltIn.entries.count == Self.table.entries.count + 1)
    }

    @Test("Setting entries builds the lookups anew")
    func settingEntries() {
        var table = SpeciesTable(entries: [])
        #expect(table.match("레게") == nil)
        table.entries = [SpeciesEntry(animalClass: "reptile", species: "Eublepharis macularius", aliases: ["레게"]),
                         SpeciesEntry(animalClass: "reptile", species: "EUBLEPHARIS MACULARIUS", aliases: ["레오"])]
        #expect(table.entries == [SpeciesEntry(animalClass: "reptile", species: "Eublepharis macularius", aliases: ["레게", "레오"])])
        #expect(table.match("레오")?.entry.species == "Eublepharis macularius")
    }
}
