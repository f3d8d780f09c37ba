import Foundation
import DossierTestSupport
import Testing
@testable import DossierRecords

@Suite("Species additions in JSON, and taxonomies from pickers' property lists")
struct SpeciesFilesTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    @Test("save writes sorted, readable JSON leaving out what is empty; load reads it back")
    func saveAndLoad() throws {
        let entries = [
            SpeciesEntry(animalClass: "reptile", species: "Eublepharis macularius", aliases: ["레오"], morphs: ["Sunglow"],
                         morphAliases: ["Sunglow": ["선글로우"]]),
            SpeciesEntry(animalClass: "reptile", species: "Uroplatus phantasticus",
                         commonNames: LocalizedName(ko: "사탄 리프테일 게코", en: "Satanic leaf-tailed gecko")),
        ]
        let url = folder.url.appendingPathComponent("species.json")
        try SpeciesTable.save(entries, to: url)
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self) == """
            [
              {
                "aliases" : [
                  "레오"
                ],
                "animalClass" : "reptile",
                "morphAliases" : {
                  "Sunglow" : [
                    "선글로우"
                  ]
                },
                "morphs" : [
                  "Sunglow"
                ],
                "species" : "Eublepharis macularius"
              },
              {
                "animalClass" : "reptile",
                "commonNames" : {
                  "en" : "Satanic leaf-tailed gecko",
                  "ko" : "사탄 리프테일 게코"
                },
                "species" : "Uroplatus phantasticus"
              }
            ]
            """)
        #expect(try SpeciesTable.load(from: url) == entries)
    }

    @Test("A hand-written file may leave out every list; a broken one is refused")
    func handWritten() throws {
        let path = try folder.write(#"[{"animalClass": "arthropod", "species": "Armadillidium maculatum", "morphs": ["Zebra"]}]"#,
                                    to: "mine.json")
        #expect(try SpeciesTable.load(from: URL(fileURLWithPath: path))
            == [SpeciesEntry(animalClass: "arthropod", species: "Armadillidium maculatum", morphs: ["Zebra"])])
        let broken = try folder.write(#"[{"species": "Armadillidium maculatum"}]"#, to: "broken.json")
        #expect(throws: DecodingError.self) { try SpeciesTable.load(from: URL(fileURLWithPath: broken)) }
        #expect(throws: (any Error).self) { try SpeciesTable.load(from: folder.url.appendingPathComponent("missing.json")) }
    }

    static var taxonomy: [String: Any] { [
        "Reptiles": [
            "Leopard Gecko": ["Normal", "마크스노우", "Galaxy", " ", "Galaxy"],
            "Blue-tongued skink": ["Northern": ["Normal", "Hypo"], "Tanimbar": ["Normal"]],
            "Crested Gecko": "Harlequin",
        ] as [String: Any],
        "곤충": ["장수풍뎅이", "Dorcus hopei"],
        "Frogs": ["Pacman": [String]()],
    ] }

    @Test("A picker taxonomy becomes entries: classes canonical, species as the app spelled them")
    func taxonomy() {
        #expect(SpeciesTable.entries(fromTaxonomy: Self.taxonomy) == [
            SpeciesEntry(animalClass: "Frogs", species: "Pacman"),
            SpeciesEntry(animalClass: "reptile", species: "Blue-tongued skink", subspecies: ["Northern", "Tanimbar"],
                         morphs: ["Normal", "Hypo"]),
            SpeciesEntry(animalClass: "reptile", species: "Crested Gecko", morphs: ["Harlequin"]),
            SpeciesEntry(animalClass: "reptile", species: "Leopard Gecko", morphs: ["Normal", "마크스노우", "Galaxy"]),
            SpeciesEntry(animalClass: "arthropod", species: "장수풍뎅이"),
            SpeciesEntry(animalClass: "arthropod", species: "Dorcus hopei"),
        ])
    }

    @Test("A taxonomy read from an XML property list merges into the built-in table")
    func taxonomyFromPropertyList() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
              <key>파충류</key>
              <dict>
                <key>레오파드 게코</key>
                <array><string>노멀</string><string>Mack Snow</string><string>선글로우</string></array>
                <key>Uroplatus phantasticus</key>
                <array/>
              </dict>
            </dict>
            </plist>
            """
        let dictionary = try #require(PropertyListSerialization.propertyList(from: Data(plist.utf8), format: nil) as? [String: Any])
        let entries = SpeciesTable.entries(fromTaxonomy: dictionary)
        #expect(entries == [
            SpeciesEntry(animalClass: "reptile", species: "Uroplatus phantasticus"),
            SpeciesEntry(animalClass: "reptile", species: "레오파드 게코", morphs: ["노멀", "Mack Snow", "선글로우"]),
        ])
        let table = SpeciesTable.builtIn.merging(entries)
        let leopard = try #require(table.match("레오파드 게코")?.entry)
        #expect(leopard.species == "Eublepharis macularius")
        #expect(leopard.morphs.filter { $0 == "Mack Snow" || $0 == "Normal" }.count == 2)
        #expect(leopard.morphs.last == "선글로우")
        #expect(table.entries.count == SpeciesTable.builtIn.entries.count + 1)
        #expect(table.normalise(animalClass: nil, species: "레게", subspecies: nil, morph: "노멀").morph == "Normal")
    }
}
