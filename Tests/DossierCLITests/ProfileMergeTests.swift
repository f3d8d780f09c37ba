import Foundation
import DossierTestSupport
import Testing

/// A profile imported from a property list or CSV is merged into `profile.json`: a field typed
/// with `subjects add` or `edit` wins unless `--overwrite-profiles`, and every outcome says, per
/// subject, which fields it changed and which typed ones it kept.
@Suite("Profiles merged, not overwritten")
struct ProfileMergeTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The library reads a property list's instants in its own zone: UTC here, so 05:30Z is 05:30.
    func run(_ arguments: [String]) throws -> DossierBinary.Result {
        try DossierBinary.run(arguments + ["--library", "Library"], in: folder.url, environment: ["TZ": "UTC"])
    }

    func profile(_ subject: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/\(subject)/profile.json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Mina as the diary app exported her: born at 05:30 UTC.
    static let minaPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
          <key>children</key>
          <array><dict>
            <key>id</key><string>mina</string>
            <key>name</key><string>민아</string>
            <key>aliases</key><array><string>Mina</string></array>
            <key>birthday</key><date>2024-02-10T05:30:00Z</date>
            <key>gender</key><string>girl</string>
          </dict></array>
        </dict>
        </plist>
        """

    static let keptLine: String = "  kept children/mina born 2024-02-10T14:30, typed by hand; "
        + "the import said 2024-02-10T05:30 (--overwrite-profiles takes it)\n"

    /// What `profilesKept` says of Mina's birth.
    static let minaKept: [String: [[String: String]]] = [
        "children/mina": [["field": "born", "kept": "2024-02-10T14:30", "imported": "2024-02-10T05:30"]],
    ]

    func addMina() throws {
        let added = try run(["subjects", "add", "children/mina", "--name", "민아", "--born", "2024-02-10T14:30", "--sex", "girl"])
        #expect(added.status == 0, "\(added.standardError)")
    }

    @Test("A birth time typed by hand survives a property-list import, and the outcome says it was kept")
    func aTypedBirthTimeIsKept() throws {
        try addMina()
        try folder.write(ProfileMergeTests.minaPlist, to: "mina.plist")
        let imported = try run(["import", "--create", "mina.plist"])
        #expect(imported.status == 0, "\(imported.standardError)")
        let said: String = "imported \(folder.path("mina.plist")) -> \(folder.path("Library/children/mina/profile.json"))\n"
            + "  profile children/mina: aliases\n" + ProfileMergeTests.keptLine + "1 source: 1 imported, "
        #expect(imported.standardOutput.hasPrefix(said), "\(imported.standardOutput)")
        let mina = try profile("children/mina")
        #expect(mina["born"] as? String == "2024-02-10T14:30")
        #expect(mina["aliases"] as? [String] == ["Mina"])
        #expect(mina["typed"] as? [String] == ["name", "born", "sex"])

        // Imported again after an edit: nothing to change, the difference said once more.
        try folder.write(ProfileMergeTests.minaPlist + "\n", to: "mina.plist")
        let again = try run(["import", "--create", "mina.plist", "--json"])
        #expect(again.status == 0)
        let outcome = try #require(again.outcomes.first)
        #expect(outcome["status"] as? String == "duplicate")
        #expect(outcome["profiles"] == nil)
        #expect(outcome["profilesKept"] as? [String: [[String: String]]] == ProfileMergeTests.minaKept)
    }

    @Test("--overwrite-profiles lets the import replace a field typed by hand, which is the import's from then on")
    func overwriteProfilesReplacesIt() throws {
        try addMina()
        try folder.write(ProfileMergeTests.minaPlist, to: "mina.plist")
        let imported = try run(["import", "--create", "mina.plist", "--overwrite-profiles", "--json"])
        #expect(imported.status == 0, "\(imported.standardError)")
        let outcome = try #require(imported.outcomes.first)
        #expect(outcome["profiles"] as? [String: [String]] == ["children/mina": ["aliases", "born"]])
        #expect(outcome["profilesKept"] == nil)
        let mina = try profile("children/mina")
        #expect(mina["born"] as? String == "2024-02-10T05:30")
        #expect(mina["typed"] as? [String] == ["name", "sex"])

        // Typed again, it wins again over the same file.
        let edited = try run(["subjects", "edit", "children/mina", "--born", "2024-02-10T14:30"])
        #expect(edited.status == 0, "\(edited.standardError)")
        try folder.write(ProfileMergeTests.minaPlist + "\n", to: "mina.plist")
        let again = try run(["import", "--create", "mina.plist", "--json"])
        #expect(try #require(again.outcomes.first)["profilesKept"] != nil)
        #expect(try profile("children/mina")["born"] as? String == "2024-02-10T14:30")
    }

    @Test("An import that changes three profiles lists all three with their fields, on the terminal and in --json")
    func everyProfileChangedIsListed() throws {
        try addMina()
        try FileManager.default.copyItem(at: DossierBinary.packageRoot.appendingPathComponent("Samples/profiles.plist"),
                                         to: folder.url.appendingPathComponent("profiles.plist"))
        let shown = try run(["import", "--create", "profiles.plist", "--dry-run"])
        #expect(shown.status == 0, "\(shown.standardError)")
        // The property list's keys are read in order: children, then pets.
        let destination: String = folder.path("Library/children/mina/profile.json")
        var said: String = "would file \(folder.path("profiles.plist")) -> \(destination)\n"
        said += "  profile children/mina: would change aliases\n"
        said += "  profile pets/leo: would change name, aliases, born, sex, class, species, morph\n"
        said += "  profile pets/coco: would change name, aliases, sex, class, species\n"
        said += ProfileMergeTests.keptLine + "Dry run (nothing written): 1 source: 1 would import, "
        #expect(shown.standardOutput.hasPrefix(said), "\(shown.standardOutput)")

        let imported = try run(["import", "--create", "profiles.plist", "--json"])
        #expect(imported.status == 0, "\(imported.standardError)")
        let outcome = try #require(imported.outcomes.first)
        #expect(outcome["subject"] as? String == "children/mina")
        #expect(outcome["subjects"] as? [String] == ["children/mina", "pets/leo", "pets/coco"])
        let changed: [String: [String]] = [
            "pets/leo": ["name", "aliases", "born", "sex", "class", "species", "morph"],
            "pets/coco": ["name", "aliases", "sex", "class", "species"],
            "children/mina": ["aliases"],
        ]
        #expect(outcome["profiles"] as? [String: [String]] == changed)
        #expect(outcome["profilesKept"] as? [String: [[String: String]]] == ProfileMergeTests.minaKept)
        #expect(try profile("pets/leo")["typed"] as? [String] == [])
    }

    @Test("A profile written before typed fields were kept counts its fields as typed: an import keeps them, says so and fills the rest")
    func oldProfilesCountAsTyped() throws {
        let added = try run(["subjects", "add", "pets/leo", "--name", "레오"])
        #expect(added.status == 0, "\(added.standardError)")
        // As an earlier Dossier wrote it: no `typed` list.
        try folder.write("""
            {
              "aliases" : [],
              "id" : "leo",
              "kind" : "pets",
              "name" : "Leo",
              "sex" : "female"
            }

            """, to: "Library/pets/leo/profile.json")
        try FileManager.default.copyItem(at: DossierBinary.packageRoot.appendingPathComponent("Samples/profiles.plist"),
                                         to: folder.url.appendingPathComponent("profiles.plist"))
        let imported = try run(["import", "--create", "profiles.plist", "--json"])
        #expect(imported.status == 0, "\(imported.standardError)")
        let outcome = try #require(imported.outcomes.first)
        #expect((outcome["profiles"] as? [String: [String]])?["pets/leo"] == ["aliases", "born", "class", "species", "morph"])
        let kept: [String: [[String: String]]] = ["pets/leo": [
            ["field": "name", "kept": "Leo", "imported": "레오"],
            ["field": "sex", "kept": "female", "imported": "male"],
        ]]
        #expect(outcome["profilesKept"] as? [String: [[String: String]]] == kept)
        let leo = try profile("pets/leo")
        #expect(leo["name"] as? String == "Leo")
        #expect(leo["sex"] as? String == "female")
        #expect(leo["born"] as? String == "2022-06-01")
        #expect(leo["typed"] as? [String] == ["name", "sex"])
    }
}
