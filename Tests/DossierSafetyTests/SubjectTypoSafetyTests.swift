import DossierCore
import Foundation
import DossierTestSupport
import Testing

/// A folder name is not enough to make a subject: `pets/lepo` for leo must not become a pet.
@Suite("A misspelt subject folder never becomes a subject")
struct SubjectTypoSafetyTests {
    static func libraryWithLeo(in folder: TemporaryFolder) throws {
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "Leo", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
    }

    @Test("An import leaves a folder's files unassigned when it names no subject, with the nearest ids; --create makes it")
    func importLeavesTyposUnassigned() throws {
        let folder = try TemporaryFolder()
        try SubjectTypoSafetyTests.libraryWithLeo(in: folder)
        try folder.write(SafetyFixtures.jpeg(seed: 3), to: "dump/pets/lepo/o1.jpg")
        try folder.write(SafetyFixtures.jpeg(seed: 4), to: "dump/pets/leo/o2.jpg")

        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
        let typo = try #require(result.outcomes.first { ($0["source"] as? String)?.hasSuffix("o1.jpg") == true })
        #expect(typo["status"] as? String == "unassigned")
        #expect(typo["error"] as? String == "\(folder.path("dump/pets/lepo/o1.jpg")): no subject pets/lepo in the library "
            + "(did you mean pets/leo?); add it with `dossier subjects add pets/lepo` (or give --create to make it from its folder)")
        #expect(result.outcomes.first { ($0["source"] as? String)?.hasSuffix("o2.jpg") == true }?["status"] as? String == "imported")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/lepo")))
        let subjects = try DossierBinary.run(["subjects", "list", "--json", "--library", "Library"], in: folder.url)
        #expect(subjects.jsonLines.compactMap { $0["id"] as? String } == ["leo"])

        let created = try DossierBinary.run(["import", "dump", "--library", "Library", "--create", "--json"], in: folder.url)
        #expect(created.status == 0, "\(created.standardOutput)")
        #expect(created.outcomes.first { ($0["source"] as? String)?.hasSuffix("o1.jpg") == true }?["subject"] as? String == "pets/lepo")
    }

    @Test("A dry run says the same as the import it stands for")
    func dryRunSaysSo() throws {
        let folder = try TemporaryFolder()
        try SubjectTypoSafetyTests.libraryWithLeo(in: folder)
        try folder.write(SafetyFixtures.jpeg(seed: 3), to: "dump/children/mnia/o1.jpg")
        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--dry-run", "--json"], in: folder.url)
        #expect(result.outcomes.first?["status"] as? String == "unassigned")
        #expect((result.outcomes.first?["error"] as? String)?.hasSuffix(": no subject children/mnia in the library; "
            + "add it with `dossier subjects add children/mnia` (or give --create to make it from its folder)") == true)
    }

    @Test("The daemon quarantines what lands in a folder naming no subject, the reason naming the nearest ids")
    func daemonQuarantinesTypos() async throws {
        let folder = try TemporaryFolder()
        try SubjectTypoSafetyTests.libraryWithLeo(in: folder)
        let added = try DossierBinary.run(["subjects", "add", "pets/boris", "--name", "Boris", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)
        try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, createsSubjects: false)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try folder.write(SafetyFixtures.jpeg(seed: 5), to: "outside/b.jpg")
        try FileManager.default.createDirectory(atPath: folder.path("inbox/pets/bori"), withIntermediateDirectories: true)
        #expect(rename(folder.path("outside/b.jpg"), folder.path("inbox/pets/bori/b.jpg")) == 0)
        #expect(await daemon.wait { daemon.events("quarantined").count == 1 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        #expect(daemon.events("quarantined").first?["reason"] == "no subject pets/bori in the library (did you mean pets/boris?); "
            + "add it with `dossier subjects add pets/bori` (or give --create to make it from its folder)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/bori")))
    }
}
