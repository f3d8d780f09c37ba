import DossierCore
import Foundation
import DossierTestSupport
import Testing

@Suite("Profiles, taxonomies and records from property lists and CSV, end to end")
struct RecordSourcesTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func run(_ arguments: [String]) throws -> DossierBinary.Result {
        try DossierBinary.run(arguments + ["--library", "Library"], in: folder.url)
    }

    func profile(_ subject: String) throws -> [String: Any] {
        let shown = try run(["subjects", "show", subject, "--json"])
        return try #require(shown.jsonLines.first, "\(shown.standardError)")
    }

    @Test("A property list of profiles creates the subjects, with Korean species and morph names made canonical")
    func profilesFromAPropertyList() throws {
        try FileManager.default.copyItem(at: DossierBinary.packageRoot.appendingPathComponent("Samples/profiles.plist"),
                                         to: folder.url.appendingPathComponent("profiles.plist"))
        let result = try run(["import", "--create", "profiles.plist", "--json"])
        #expect(result.status == 0)
        #expect(result.outcomes.first?["status"] as? String == "imported")
        let leo = try profile("pets/leo")
        #expect(leo["name"] as? String == "레오")
        #expect(leo["aliases"] as? [String] == ["Leo"])
        #expect(leo["born"] as? String == "2022-06-01")
        #expect(leo["species"] as? String == "Eublepharis macularius")
        #expect(leo["morph"] as? String == "Mack Snow")
        #expect(leo["sex"] as? String == "male")
        let mina = try profile("children/mina")
        #expect(mina["sex"] as? String == "female")
        #expect(((mina["derived"] as? [String: Any])?["chineseZodiac"] as? [String: String])?["ko"] == "용")
        let again = try run(["import", "--create", "profiles.plist", "--json"])
        #expect(again.outcomes.first?["status"] as? String == "duplicate")
        try folder.write(Array((try Data(contentsOf: folder.url.appendingPathComponent("profiles.plist"))) + [0x0A]),
                         to: "profiles.plist")
        let touched = try run(["import", "--create", "profiles.plist", "--json"])
        #expect(touched.outcomes.first?["status"] as? String == "duplicate")
    }

    @Test("A picker taxonomy adds to the library's species table under the canonical Latin names")
    func taxonomyFromAPropertyList() throws {
        try FileManager.default.copyItem(at: DossierBinary.packageRoot.appendingPathComponent("Samples/taxonomy.plist"),
                                         to: folder.url.appendingPathComponent("taxonomy.plist"))
        let result = try run(["import", "--create", "taxonomy.plist", "--json"])
        #expect(result.outcomes.first?["destination"] as? String == folder.path("Library/config/species.json"))
        let species = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("Library/config/species.json")))
        let names = (species as? [[String: Any]])?.compactMap { $0["species"] as? String }
        #expect(names == ["Ambystoma mexicanum", "Rhacodactylus auriculatus", "Eublepharis macularius"])
        // The picker's morph now normalises in profiles too.
        let added = try run(["subjects", "add", "pets/rex", "--name", "Rex", "--species", "Gargoyle Gecko", "--morph", "red stripe"])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(try profile("pets/rex")["morph"] as? String == "Red Stripe")
    }

    @Test("A dated record dictionary in a property list gives records")
    func recordsFromAPropertyList() throws {
        _ = try run(["subjects", "add", "pets/leo", "--name", "레오"])
        try folder.write(Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>2023-05-01</key><string>귀뚜라미 5마리</string>
                <key>2023-05-03</key><array><string>탈피</string><string>체중 45g</string></array>
            </dict>
            </plist>
            """.utf8), to: "pets/leo/diary.plist")
        let result = try run(["import", "--create", "pets", "--json"])
        #expect(result.status == 0, "\(result.standardOutput)")
        let records = try run(["records", "pets/leo", "--json"]).jsonLines
        #expect(records.map { "\($0["date"]!) \($0["kind"]!) \($0["text"]!)" } == [
            "2023-05-01 feeding 귀뚜라미 5마리", "2023-05-03 shedding 탈피", "2023-05-03 weight 체중 45g",
        ])
    }

    @Test("A property list that is neither profiles, taxonomy nor records (an app's settings) is skipped, saying what it holds")
    func skipsOtherPropertyLists() throws {
        try folder.write(Array(#"<?xml version="1.0"?><plist version="1.0"><dict><key>WindowFrame</key><integer>1</integer></dict></plist>"#.utf8),
                         to: "settings.plist")
        let result = try run(["import", "settings.plist", "--subject", "pets/leo", "--create", "--json"])
        #expect(result.status == 3)
        #expect(result.outcomes.first?["status"] as? String == "skipped")
        #expect(result.outcomes.first?["stage"] as? String == "read")
        #expect(result.outcomes.first?["error"] as? String == "\(folder.path("settings.plist")): a property list, but not a profile list, "
            + "species taxonomy or record list: its keys (WindowFrame) are not profiles, a taxonomy or dated records")
    }

    @Test("Text with no dated entries (a README) is skipped with a count, not a list of problems")
    func skipsTextWithoutEntries() throws {
        try folder.write(Array("About this dump\nPhotos from Leo's first year\n".utf8), to: "pets/leo/README.txt")
        let result = try run(["import", "--create", "pets", "--json"])
        #expect(result.status == 3)
        #expect(result.outcomes.first?["status"] as? String == "skipped")
        #expect(result.outcomes.first?["stage"] as? String == "read")
        #expect(result.outcomes.first?["error"] as? String == "\(folder.path("pets/leo/README.txt")): no dated entries in it (2 lines without a date)")
        #expect(result.outcomes.first?["problems"] == nil)
    }

    @Test("An entity declaration in an XML property list is refused, before any parsing")
    func refusesEntityDeclarations() throws {
        try folder.write(Array("""
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY lol "lol">]>
            <plist version="1.0"><dict><key>2023-05-01</key><string>&lol;</string></dict></plist>
            """.utf8), to: "bomb.plist")
        let result = try run(["import", "bomb.plist", "--subject", "pets/leo", "--create", "--json"])
        #expect(result.status == 1)
        #expect((result.outcomes.first?["error"] as? String)?.contains("entity declarations are not supported") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/leo/records")))
    }

    @Test("A CSV of subjects (id, name, born, species) creates their profiles")
    func profilesFromCSV() throws {
        try folder.write(Array("id,name,kind,born,sex,species,morph\nkiwi,키위,pet,2021-04-02,암컷,크레,\nbomi,보미,child,2023-09-01,girl,,\n".utf8),
                         to: "subjects.csv")
        let result = try run(["import", "--create", "subjects.csv", "--json"])
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(try profile("pets/kiwi")["species"] as? String == "Correlophus ciliatus")
        #expect(try profile("children/bomi")["born"] as? String == "2023-09-01")
    }

    @Test("A log named after a subject's name goes to that subject; --kind is the kind of a CSV without a kind column")
    func routingByNameAndKindOption() throws {
        _ = try run(["subjects", "add", "pets/leo", "--name", "레오", "--alias", "Leo"])
        _ = try run(["subjects", "add", "children/mina", "--name", "민아"])
        try folder.write(Array("2023-05-01 체중 45g\n".utf8), to: "notes/레오.txt")
        try folder.write(Array("when,minutes\n2024-03-01 21:00,540\n".utf8), to: "notes/민아/export.csv")
        let result = try run(["import", "--create", "notes", "--kind", "sleep", "--json"])
        #expect(result.status == 0, "\(result.standardOutput)")
        let leo = try run(["records", "pets/leo", "--json"]).jsonLines
        #expect(leo.map { $0["kind"] as? String } == ["weight"])
        let mina = try run(["records", "children/mina", "--json"]).jsonLines
        #expect(mina.map { $0["kind"] as? String } == ["sleep"])
        #expect((mina.first?["measurements"] as? [[String: Any]])?.first?["unit"] as? String == "min")
    }
}
