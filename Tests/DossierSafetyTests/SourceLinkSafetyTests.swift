import DossierCore
import DossierTestSupport
import Foundation
import Glibc
import Testing

/// Whoever can write into a folder Dossier walks can put a link there to any file Dossier's account
/// can read. `import` and `watch` follow a link met while walking only to a regular file inside
/// the folder they were given, of their own user; any other (out of the folder, another user's, a
/// folder, a chain leading out) is skipped and said, and nothing it leads to is read, filed, kept,
/// quarantined or reported. A link swapped in between the walk and the read is never read through.
@Suite("Links in the folders Dossier walks", .serialized)
struct SourceLinkSafetyTests {
    static let privateKey = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA-secret-7f3a\n-----END OPENSSH PRIVATE KEY-----\n"
    static let diary = "2024-03-01 Rex weight 4242 g\n2024-03-02 Rex weight 4343 g, dear diary secret-9c1e\n"
    static let markers = ["secret-7f3a", "secret-9c1e", "4242", "4343"]

    /// The files under `relative` holding any of the secrets' bytes.
    static func secrets(under relative: String, in folder: TemporaryFolder) -> [String] {
        folder.files(under: relative).filter { file in
            let text = String(decoding: SafetyFixtures.contents(folder.path("\(relative)/\(file)")) ?? [], as: UTF8.self)
            return markers.contains { text.contains($0) }
        }
    }

    /// The secrets, outside the folder a test walks.
    static func writeSecrets(in folder: TemporaryFolder) throws -> (key: String, diary: String) {
        (try folder.write(privateKey, to: "home/.ssh/id_ed25519"), try folder.write(diary, to: "home/diary.txt"))
    }

    /// Nothing of the secrets in the library (its sources, quarantine, records, report, index), and both as they were.
    static func expectNothingLeaked(_ folder: TemporaryFolder, _ secrets: (key: String, diary: String)) throws {
        let report = try DossierBinary.run(["report", "--library", "Library"], in: folder.url)
        #expect(report.status == 0, "\(report.standardError)")
        #expect(SourceLinkSafetyTests.secrets(under: "Library", in: folder).isEmpty,
                "\(SourceLinkSafetyTests.secrets(under: "Library", in: folder))")
        let index = String(decoding: SafetyFixtures.contents(folder.path("Library/.dossier/index.sqlite")) ?? [], as: UTF8.self)
        #expect(!markers.contains { index.contains($0) })
        #expect(WatchSafetyTests.recordLines(folder).isEmpty, "\(WatchSafetyTests.recordLines(folder))")
        #expect(SafetyFixtures.contents(secrets.key) == Array(privateKey.utf8))
        #expect(SafetyFixtures.contents(secrets.diary) == Array(diary.utf8))
    }

    static func outcome(_ result: DossierBinary.Result, _ name: String) -> [String: Any]? {
        result.outcomes.first { ($0["source"] as? String)?.hasSuffix("/\(name)") == true }
    }

    // MARK: import

    @Test("import never follows a link in the folder to a file outside it: a private key and a dated diary are skipped and said, and reach neither sources/, quarantine/, the records nor the report")
    func importSkipsLinksOutOfTheFolder() throws {
        let folder = try WatchSafetyTests.prepare()
        let secrets = try SourceLinkSafetyTests.writeSecrets(in: folder)
        try FileManager.default.createDirectory(atPath: folder.path("dump/pets/rex"), withIntermediateDirectories: true)
        #expect(symlink(secrets.key, folder.path("dump/pets/rex/id_ed25519")) == 0)
        #expect(symlink(secrets.diary, folder.path("dump/pets/rex/notes.txt")) == 0)
        try folder.write(SafetyFixtures.jpeg(seed: 1), to: "dump/pets/rex/IMG_0001.JPG")

        let json = try DossierBinary.run(["import", "dump", "--library", "Library", "--move", "--json"], in: folder.url)

        // Finished, but left something for a person: exit 3, each link named with the reason.
        #expect(json.status == 3, "\(json.standardOutput)\(json.standardError)")
        for (name, target) in [("id_ed25519", secrets.key), ("notes.txt", secrets.diary)] {
            let skipped = try #require(SourceLinkSafetyTests.outcome(json, name), "\(json.standardOutput)")
            #expect(skipped["status"] as? String == "skipped")
            #expect(skipped["errorCode"] as? String == "link-not-followed")
            #expect(skipped["error"] as? String == "\(folder.path("dump/pets/rex/\(name)")): it is a link to \(target), outside "
                + "\(folder.path("dump")); Dossier never follows a link out of the folder it was given (copy the file in instead)")
            // The link is left where it is, --move or not.
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder.path("dump/pets/rex/\(name)"))) == target)
        }
        #expect(SourceLinkSafetyTests.outcome(json, "IMG_0001.JPG")?["status"] as? String == "imported")
        #expect(json.summary?["linksNotFollowed"] as? Int == 2)

        // In text too, without --verbose.
        let text = try DossierBinary.run(["import", "dump", "--library", "Library"], in: folder.url)
        #expect(text.status == 3)
        #expect(text.standardOutput.contains("skipped \(folder.path("dump/pets/rex/notes.txt")): it is a link to \(secrets.diary), outside"),
                "\(text.standardOutput)")
        #expect(text.standardOutput.contains("2 links not followed (see above)"), "\(text.standardOutput)")
        try SourceLinkSafetyTests.expectNothingLeaked(folder, secrets)
    }

    @Test("import never walks a link to a folder, nor follows a chain of links out of the folder; a chain that stays inside it reads the file it ends at")
    func importSkipsFolderLinksAndChainsOut() throws {
        let folder = try WatchSafetyTests.prepare()
        let secrets = try SourceLinkSafetyTests.writeSecrets(in: folder)
        try folder.write(SafetyFixtures.jpeg(seed: 2), to: "dump/pets/rex/IMG_0002.JPG")
        #expect(symlink(folder.path("home"), folder.path("dump/pets/rex/home")) == 0)
        // notes.txt -> hop.txt -> the diary, outside; best.jpg -> pick.jpg -> IMG_0002.JPG, inside.
        #expect(symlink(secrets.diary, folder.path("dump/pets/rex/hop.txt")) == 0)
        #expect(symlink("hop.txt", folder.path("dump/pets/rex/notes.txt")) == 0)
        #expect(symlink("IMG_0002.JPG", folder.path("dump/pets/rex/pick.jpg")) == 0)
        #expect(symlink("pick.jpg", folder.path("dump/pets/rex/best.jpg")) == 0)

        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)

        #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
        let skipped = result.outcomes.filter { $0["errorCode"] as? String == "link-not-followed" }.compactMap { $0["source"] as? String }
        #expect(skipped.sorted() == ["home", "hop.txt", "notes.txt"].map { folder.path("dump/pets/rex/\($0)") }, "\(result.standardOutput)")
        #expect((SourceLinkSafetyTests.outcome(result, "home")?["error"] as? String)?
            .hasSuffix("it is a link to \(folder.path("home")), outside \(folder.path("dump")); Dossier never follows a link out of the folder "
                + "it was given (copy the file in instead)") == true)
        // The chain inside is read as the photo it ends at, and so is the link half way along it
        // (each name a source of its own, worked on beside the photo itself: all but one are
        // duplicates): one photo filed.
        let statuses = ["IMG_0002.JPG", "best.jpg", "pick.jpg"].compactMap { SourceLinkSafetyTests.outcome(result, $0)?["status"] as? String }
        #expect(statuses.sorted() == ["duplicate", "duplicate", "imported"], "\(result.standardOutput)")
        #expect(folder.files(under: "Library/pets/rex/photos").count == 1)
        try SourceLinkSafetyTests.expectNothingLeaked(folder, secrets)
    }

    @Test("import never follows a link to another user's file, even inside the folder; a link it names itself is followed",
          .enabled(if: getuid() == 0, "needs root to give a file to another user (uid 65534)"))
    func importSkipsLinksToAnotherUsersFile() throws {
        let folder = try WatchSafetyTests.prepare()
        // A hidden folder of the dump: the walk passes it over, so only the link could read it.
        let theirs = try folder.write(SourceLinkSafetyTests.diary, to: "dump/.theirs/diary.txt")
        #expect(chown(theirs, 65534, 65534) == 0)
        try FileManager.default.createDirectory(atPath: folder.path("dump/pets/rex"), withIntermediateDirectories: true)
        #expect(symlink(theirs, folder.path("dump/pets/rex/theirs.txt")) == 0)
        // Its own user's, in the same hidden folder: followed.
        try folder.write("2024-03-05 Rex weight 455 g\n", to: "dump/.mine/weights.txt")
        #expect(symlink(folder.path("dump/.mine/weights.txt"), folder.path("dump/pets/rex/mine.txt")) == 0)

        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)

        #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
        let skipped = try #require(SourceLinkSafetyTests.outcome(result, "theirs.txt"))
        #expect(skipped["errorCode"] as? String == "link-not-followed")
        #expect(skipped["error"] as? String == "\(folder.path("dump/pets/rex/theirs.txt")): it is a link to \(theirs), a file of "
            + "another user (uid 65534); Dossier follows a link only to a file of its own user (uid 0)")
        #expect(SourceLinkSafetyTests.outcome(result, "mine.txt")?["status"] as? String == "imported", "\(result.standardOutput)")
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-05 455"])
        #expect(SourceLinkSafetyTests.secrets(under: "Library", in: folder).isEmpty)

        // Named on the command line, a link is the user's choice: followed, wherever it leads.
        let outside = try folder.write(SafetyFixtures.jpeg(seed: 5), to: "home/IMG_0005.JPG")
        #expect(symlink(outside, folder.path("named.jpg")) == 0)
        let named = try DossierBinary.run(["import", "named.jpg", "--library", "Library", "--subject", "pets/rex", "--json"], in: folder.url)
        #expect(named.status == 0, "\(named.standardOutput)\(named.standardError)")
        #expect(named.outcomes.first?["status"] as? String == "imported")
    }

    @Test("import never reads through a link swapped in for a file between the walk and the read, nor a file renamed over it")
    func importNeverReadsASwappedInLink() throws {
        let folder = try WatchSafetyTests.prepare()
        let secrets = try SourceLinkSafetyTests.writeSecrets(in: folder)
        let preload = try SourceTampering.library(in: folder)
        for (name, swapIn, reason) in [
            ("notes.txt", { (path: String) in symlink(secrets.diary, path) },
             "it was replaced by a symbolic link after it was found; Dossier never reads a file through a link put in its place"),
            ("weights.txt", { (path: String) in (try? FileManager.default.copyItem(atPath: secrets.diary, toPath: path)) == nil ? -1 : 0 },
             "it was replaced by another file after it was found (a file renamed over it, or a link pointed elsewhere); "
                + "it is read again at the next import"),
        ] {
            let source = try folder.write("2024-03-01 Rex weight 400 g\n", to: "dump-\(name)/pets/rex/\(name)")
            let swap = folder.path("swaps/\(name)")
            try FileManager.default.createDirectory(atPath: folder.path("swaps"), withIntermediateDirectories: true)
            #expect(swapIn(swap) == 0)
            // Just before Dossier first opens the file it walked to, another process renames the swap over it.
            let result = try DossierBinary.run(["import", "dump-\(name)", "--library", "Library", "--move", "--json"], in: folder.url,
                                               environment: ["LD_PRELOAD": preload, "DOSSIER_TEST_SWAP_PATH": source,
                                                             "DOSSIER_TEST_SWAP_WITH": swap])
            #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
            let failed = try #require(result.outcomes.first)
            #expect(failed["status"] as? String == "failed", "\(result.standardOutput)")
            #expect((failed["error"] as? String)?.hasSuffix(reason) == true, "\(result.standardOutput)")
            // What was swapped in is left where it is.
            #expect(FileManager.default.fileExists(atPath: source))
        }
        try SourceLinkSafetyTests.expectNothingLeaked(folder, secrets)
    }

    // MARK: watch

    @Test("The daemon never follows a link in its inbox out of it, to a folder, through a chain, or to another user's file: each stays, is listed as stuck with the reason, and nothing it leads to is read or quarantined")
    func theDaemonListsLinksItDoesNotFollow() async throws {
        let folder = try WatchSafetyTests.prepare()
        let secrets = try SourceLinkSafetyTests.writeSecrets(in: folder)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try FileManager.default.createDirectory(atPath: folder.path("inbox/pets/rex"), withIntermediateDirectories: true)
        #expect(symlink(secrets.key, folder.path("inbox/pets/rex/id_ed25519")) == 0)
        #expect(symlink(secrets.diary, folder.path("inbox/pets/rex/diary.txt")) == 0)
        #expect(symlink(folder.path("home"), folder.path("inbox/pets/rex/home")) == 0)
        #expect(symlink("diary.txt", folder.path("inbox/pets/rex/chain.txt")) == 0)
        var expected = ["chain.txt", "diary.txt", "home", "id_ed25519"]
        if getuid() == 0 {
            let theirs = try folder.write(SourceLinkSafetyTests.diary, to: "inbox/.theirs/diary.txt")
            #expect(chown(theirs, 65534, 65534) == 0)
            #expect(symlink(theirs, folder.path("inbox/pets/rex/theirs.txt")) == 0)
            expected.append("theirs.txt")
        }
        try WatchSafetyTests.drop(SafetyFixtures.jpeg(seed: 7), as: "pets/rex/IMG_0007.JPG", in: folder)

        #expect(await daemon.wait { daemon.events("stuck").count == expected.count && daemon.events("filed").count == 1 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)

        let stuck = daemon.events("stuck")
        #expect(Set(stuck.compactMap { $0["source"] }) == Set(expected.map { folder.path("inbox/pets/rex/\($0)") }), "\(daemon.text)")
        #expect(stuck.allSatisfy { $0["code"] == "link-not-followed" && $0["level"] == "warning" })
        #expect(stuck.first { $0["source"]?.hasSuffix("/id_ed25519") == true }?["reason"] == "it is a link to \(secrets.key), outside "
            + "\(folder.path("inbox")); Dossier never follows a link out of the folder it was given (copy the file in instead); "
            + "it stays in the inbox, unread", "\(daemon.text)")
        #expect(daemon.events("quarantined").isEmpty, "\(daemon.text)")
        // Each link stays, listed by `dossier quarantine list`.
        for name in expected {
            #expect(SourcePath.status(folder.path("inbox/pets/rex/\(name)"), followingLinks: false) != nil, "\(name)")
        }
        let listed = try DossierBinary.run(["quarantine", "list", "--json", "--library", "Library"], in: folder.url)
        #expect(Set(listed.jsonLines.filter { $0["stuck"] as? Bool == true }.compactMap { $0["originalPath"] as? String })
            == Set(expected.map { folder.path("inbox/pets/rex/\($0)") }), "\(listed.standardOutput)")
        let text = try DossierBinary.run(["quarantine", "list", "--library", "Library"], in: folder.url)
        #expect(text.standardOutput.contains("stuck: \(folder.path("inbox/pets/rex/diary.txt"))"), "\(text.standardOutput)")
        #expect(folder.files(under: "Library/quarantine").isEmpty)
        try SourceLinkSafetyTests.expectNothingLeaked(folder, secrets)
    }

    @Test("The daemon never reads through a link swapped in for an inbox file between the walk and the read, and never quarantines what it leads to")
    func theDaemonNeverReadsASwappedInLink() async throws {
        let folder = try WatchSafetyTests.prepare()
        let secrets = try SourceLinkSafetyTests.writeSecrets(in: folder)
        let preload = try SourceTampering.library(in: folder)
        let path = folder.path("inbox/pets/rex/notes.txt")
        let swap = folder.path("swaps/notes.txt")
        try FileManager.default.createDirectory(atPath: folder.path("swaps"), withIntermediateDirectories: true)
        #expect(symlink(secrets.diary, swap) == 0)
        // The watcher's first open asks the kernel for a lease (is a writer still at it?); the
        // second is the read: the swap comes just before it.
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url,
                                     environment: ["LD_PRELOAD": preload, "DOSSIER_TEST_SWAP_PATH": path,
                                                   "DOSSIER_TEST_SWAP_WITH": swap, "DOSSIER_TEST_SWAP_AT": "2"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try WatchSafetyTests.drop(Array("2024-03-01 Rex weight 400 g\n".utf8), as: "pets/rex/notes.txt", in: folder)

        #expect(await daemon.wait { !daemon.events("stuck").isEmpty }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        #expect(daemon.events("quarantined").isEmpty && daemon.events("filed").isEmpty, "\(daemon.text)")
        #expect(daemon.events("stuck").first?["reason"]?.contains("link") == true, "\(daemon.text)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == secrets.diary)
        try SourceLinkSafetyTests.expectNothingLeaked(folder, secrets)
    }
}
