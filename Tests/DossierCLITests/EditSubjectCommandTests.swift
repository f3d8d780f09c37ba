import Foundation
import DossierTestSupport
import Testing

/// `dossier subjects edit`: how a name the logs misspell becomes an alias, and what it refuses.
@Suite("subjects edit")
struct EditSubjectCommandTests {
    static func library() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for (subject, name) in [("pets/leo", "레오"), ("pets/coco", "코코")] {
            let added = try DossierBinary.run(["subjects", "add", subject, "--name", name, "--alias", name == "레오" ? "Leo" : "Coco",
                                               "--library", "Library"], in: folder.url)
            #expect(added.status == 0)
        }
        return folder
    }

    @Test("A misspelt name made an alias files, on retry, the lines the ledger kept for it")
    func aTypoBecomesAnAlias() throws {
        let folder = try EditSubjectCommandTests.library()
        try folder.write("2024-03-01 레우: 탈피 완탈\n2024-03-02 레오: 체중 45g\n", to: "notes/log.txt")
        let imported = try DossierBinary.run(["import", "--create", "notes", "--library", "Library"], in: folder.url)
        #expect(imported.standardOutput.contains("line 1: unknown name '레우' (did you mean 레오?)"))

        let edited = try DossierBinary.run(["subjects", "edit", "pets/leo", "--add-alias", "레우", "--library", "Library"], in: folder.url)
        #expect(edited.status == 0, "\(edited.standardError)")
        #expect(edited.standardOutput == "pets/leo  레오\n  aliases: Leo, 레우\n"
            + "Lines not filed for an unknown name may now resolve: `dossier problems retry`.\n")
        let profile = try String(contentsOfFile: folder.path("Library/pets/leo/profile.json"), encoding: .utf8)
        #expect(profile.contains("\"aliases\" : [\n    \"Leo\",\n    \"레우\"\n  ]"), "\(profile)")

        let retried = try DossierBinary.run(["problems", "retry", "--library", "Library"], in: folder.url)
        #expect(retried.status == 0)
        #expect(retried.standardOutput.hasSuffix("No problems remain.\n"), "\(retried.standardOutput)")
        let records = try DossierBinary.run(["records", "pets/leo", "--kind", "shedding", "--json", "--library", "Library"], in: folder.url)
        #expect(records.jsonLines.map { $0["text"] as? String } == ["2024-03-01 레우: 탈피 완탈"])
    }

    @Test("Only what is given changes: name, birth date, species normalised, an alias removed")
    func onlyWhatIsGivenChanges() throws {
        let folder = try EditSubjectCommandTests.library()
        let edited = try DossierBinary.run(["subjects", "edit", "pets/leo", "--name", "Leo the Gecko", "--remove-alias", "leo",
                                            "--born", "2022-06-01", "--species", "레게", "--library", "Library", ], in: folder.url)
        #expect(edited.status == 0, "\(edited.standardError)")
        let shown = try DossierBinary.run(["subjects", "show", "pets/leo", "--json", "--library", "Library"], in: folder.url)
        let profile = try #require(shown.jsonLines.first)
        #expect(profile["name"] as? String == "Leo the Gecko")
        #expect(profile["aliases"] as? [String] == [])
        #expect(profile["born"] as? String == "2022-06-01")
        #expect(profile["species"] as? String == "Eublepharis macularius")
    }

    @Test("An alias another subject answers to, an alias it does not have, an unknown subject and no change are refused")
    func refusals() throws {
        let folder = try EditSubjectCommandTests.library()
        let before = try String(contentsOfFile: folder.path("Library/pets/leo/profile.json"), encoding: .utf8)
        let taken = try DossierBinary.run(["subjects", "edit", "pets/leo", "--add-alias", "COCO", "--library", "Library"], in: folder.url)
        #expect(taken.status == 1)
        #expect(taken.standardError == "dossier: 'COCO' is already a name of pets/coco: lines naming it could be filed under neither\n")
        let missing = try DossierBinary.run(["subjects", "edit", "pets/leo", "--remove-alias", "Leon", "--library", "Library"], in: folder.url)
        #expect(missing.status == 1)
        #expect(missing.standardError == "dossier: pets/leo has no alias 'Leon'; its aliases: Leo\n")
        let unknown = try DossierBinary.run(["subjects", "edit", "pets/lo", "--name", "x", "--library", "Library"], in: folder.url)
        #expect(unknown.status == 64)
        #expect(unknown.standardError.hasPrefix("Error: there is no subject pets/lo in this library (did you mean pets/leo?)\n"))
        let nothing = try DossierBinary.run(["subjects", "edit", "pets/leo", "--library", "Library"], in: folder.url)
        #expect(nothing.status == 64)
        #expect(nothing.standardError.hasPrefix("Error: nothing to change: give --name, --add-alias"))
        #expect(try String(contentsOfFile: folder.path("Library/pets/leo/profile.json"), encoding: .utf8) == before)
    }
}
