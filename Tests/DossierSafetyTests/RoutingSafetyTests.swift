import DossierCore
import Foundation
import DossierTestSupport
import Testing

/// A source's subject comes from what the user named, never from folders above it.
@Suite("Routing reads only below the path the user named")
struct RoutingSafetyTests {
    @Test("A folder above the named path that is called like a pet does not route: ~/adv/dump is not pets/adv")
    func foldersAboveTheArgumentDoNotRoute() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "pets/adv", "--name", "Adv", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)
        try folder.write(SafetyFixtures.jpeg(seed: 1), to: "adv/dump/IMG_0001.JPG")
        try folder.write(SafetyFixtures.jpeg(seed: 2), to: "adv/dump/pets/rex/IMG_0002.JPG")

        let result = try DossierBinary.run(["import", "--create", "adv/dump", "--library", "Library", "--json"], in: folder.url)
        let bySource = Dictionary(uniqueKeysWithValues: result.outcomes.map { ($0["source"] as? String ?? "", $0) })
        let loose = try #require(bySource[folder.path("adv/dump/IMG_0001.JPG")])
        #expect(loose["status"] as? String == "unassigned")
        #expect(loose["error"] as? String == "\(folder.path("adv/dump/IMG_0001.JPG")): no subject: give --subject KIND/ID, "
            + "or put the file under a pets/<id> or children/<id> folder")
        // Below the argument, a pets/<id> folder still routes.
        #expect(bySource[folder.path("adv/dump/pets/rex/IMG_0002.JPG")]?["subject"] as? String == "pets/rex")
        #expect(folder.files(under: "Library/pets/adv").filter { $0.hasPrefix("photos") }.isEmpty)
    }

    @Test("A named folder that is itself a pets/<id> folder routes its files there")
    func aNamedSubjectFolderRoutes() throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 3), to: "dump/pets/leo/IMG_0003.JPG")
        let result = try DossierBinary.run(["import", "--create", "dump/pets/leo", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.outcomes.first?["subject"] as? String == "pets/leo")
    }

    @Test("A file named on its own is routed by its name, not by the folders it sits in")
    func aNamedFileHasNoFolders() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "pets/adv", "--name", "Adv", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)
        try folder.write(SafetyFixtures.jpeg(seed: 4), to: "adv/IMG_0004.JPG")
        let result = try DossierBinary.run(["import", "--create", "adv/IMG_0004.JPG", "--library", "Library", "--json"], in: folder.url)
        #expect(result.outcomes.first?["status"] as? String == "unassigned")
    }
}
