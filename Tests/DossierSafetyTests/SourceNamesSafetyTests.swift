import DossierCore
import DossierTestSupport
import Foundation
import Glibc
import Testing

/// Every name a walk meets is a source of its own, with its line: two names of one file (hard
/// links) are each filed where their own path routes them, and a FIFO, a socket or a device is
/// said, never opened.
@Suite("Every name found is a source, and is said")
struct SourceNamesSafetyTests {
    /// The summary's total, imported, duplicate and skipped counts.
    static func counts(_ result: DossierBinary.Result) -> [Int?] {
        ["total", "imported", "duplicate", "skipped"].map { result.summary?[$0] as? Int }
    }

    @Test("A photo with two names (hard links) in two pets' folders is filed under each, each name with its line; a third name in the first pet's folder is a duplicate")
    func hardLinksAreSourcesOfTheirOwn() throws {
        let folder = try TemporaryFolder()
        let photo = try folder.write(SafetyFixtures.datedJPEG(taken: "2024:03:01 09:30:00", seed: 7), to: "dump/pets/leo/a.jpg")
        try FileManager.default.createDirectory(atPath: folder.path("dump/pets/milo"), withIntermediateDirectories: true)
        #expect(link(photo, folder.path("dump/pets/milo/b.jpg")) == 0)
        #expect(link(photo, folder.path("dump/pets/leo/c.jpg")) == 0)

        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--create", "--json"], in: folder.url)

        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(SourceNamesSafetyTests.counts(result) == [3, 2, 1, 0], "\(result.standardOutput)")
        let milo = try #require(SourceLinkSafetyTests.outcome(result, "b.jpg"), "\(result.standardOutput)")
        #expect(milo["status"] as? String == "imported")
        #expect(milo["subject"] as? String == "pets/milo")
        // Worked on at once, either of leo's two names is the one filed.
        let leo = ["a.jpg", "c.jpg"].compactMap { SourceLinkSafetyTests.outcome(result, $0)?["status"] as? String }
        #expect(leo.sorted() == ["duplicate", "imported"], "\(result.standardOutput)")
        #expect(folder.files(under: "Library/pets/leo/photos").count == 1)
        #expect(folder.files(under: "Library/pets/milo/photos").count == 1)
    }

    @Test("import --move removes every name of a hard-linked photo once it is filed where each name routes it")
    func hardLinksAreEachRemovedOnceFiled() throws {
        let folder = try TemporaryFolder()
        let bytes = SafetyFixtures.datedJPEG(taken: "2024:03:01 09:30:00", seed: 8)
        let photo = try folder.write(bytes, to: "dump/pets/leo/a.jpg")
        try FileManager.default.createDirectory(atPath: folder.path("dump/pets/milo"), withIntermediateDirectories: true)
        #expect(link(photo, folder.path("dump/pets/milo/b.jpg")) == 0)

        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--create", "--move", "--json"], in: folder.url)

        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        for name in ["a.jpg", "b.jpg"] {
            let outcome = try #require(SourceLinkSafetyTests.outcome(result, name), "\(result.standardOutput)")
            #expect(outcome["status"] as? String == "imported", "\(name)")
            // Removing one name moves the other's change time: its bytes, hashed again, say it is the same.
            #expect(outcome["sourceRemoved"] as? Bool == true, "\(name): \(result.standardOutput)")
        }
        #expect(folder.files(under: "dump").isEmpty)
        for pet in ["leo", "milo"] {
            let filed = folder.files(under: "Library/pets/\(pet)/photos")
            #expect(filed.count == 1, "\(pet)")
            #expect(filed.first.flatMap { SafetyFixtures.contents(folder.path("Library/pets/\(pet)/photos/\($0)")) } == bytes, "\(pet)")
        }
    }

    @Test("A FIFO and a socket in a dump are each skipped, saying what they are (not-a-regular-file), counted, never opened; the photo beside them is filed; a FIFO named itself is skipped the same way")
    func specialFilesAreSkippedAndSaid() throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 9), to: "dump/pets/rex/a.jpg")
        let pipe = folder.path("dump/pets/rex/b.jpg")
        #expect(mkfifo(pipe, 0o644) == 0)
        let socket = folder.path("dump/pets/rex/c.sock")
        // Bound, then closed: the socket's file stays.
        close(SafetyFixtures.unixSocket(at: socket, type: SOCK_STREAM))
        let fifoReason = "it is a FIFO (a named pipe), not a regular file; Dossier reads only regular files, and never opens anything else"

        // Opening the FIFO to read it would wait for a writer for ever: the import ends.
        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--create", "--json"], in: folder.url)

        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(SourceNamesSafetyTests.counts(result) == [3, 1, 0, 2], "\(result.standardOutput)")
        let fifo = try #require(SourceLinkSafetyTests.outcome(result, "b.jpg"), "\(result.standardOutput)")
        #expect(fifo["status"] as? String == "skipped")
        #expect(fifo["errorCode"] as? String == "not-a-regular-file")
        #expect(fifo["error"] as? String == "\(pipe): \(fifoReason)")
        let sock = try #require(SourceLinkSafetyTests.outcome(result, "c.sock"), "\(result.standardOutput)")
        #expect(sock["errorCode"] as? String == "not-a-regular-file")
        #expect(sock["error"] as? String == "\(socket): it is a socket, not a regular file; Dossier reads only regular files, "
            + "and never opens anything else")
        #expect(folder.files(under: "Library/pets/rex/photos").count == 1)

        // In the terminal's words too, each with its line.
        let text = try DossierBinary.run(["import", "dump", "--library", "Library"], in: folder.url)
        #expect(text.status == 0, "\(text.standardOutput)\(text.standardError)")
        #expect(text.standardOutput.contains("skipped \(pipe): \(fifoReason)\n"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("skipped \(socket): it is a socket"), "\(text.standardOutput)")

        let named = try DossierBinary.run(["import", pipe, "--library", "Library", "--json"], in: folder.url)
        #expect(named.status == 0, "\(named.standardOutput)\(named.standardError)")
        #expect(named.outcomes.count == 1)
        #expect(named.outcomes.first?["status"] as? String == "skipped")
        #expect(named.outcomes.first?["errorCode"] as? String == "not-a-regular-file")
        #expect(named.outcomes.first?["error"] as? String == "\(pipe): \(fifoReason)")
    }

    @Test("The daemon says a FIFO in its inbox once, at warning level with code not-a-regular-file, not again at a rescan, never opens it, and files the photo beside it")
    func theDaemonSaysAFIFOOnce() async throws {
        let folder = try WatchSafetyTests.prepare()
        try FileManager.default.createDirectory(atPath: folder.path("inbox/pets/rex"), withIntermediateDirectories: true)
        let pipe = folder.path("inbox/pets/rex/b.jpg")
        #expect(mkfifo(pipe, 0o644) == 0)

        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("passed-over").isEmpty }, "\(daemon.text)")
        // SIGHUP reads the inbox again: the FIFO is met again, and not said again.
        kill(daemon.pid, SIGHUP)
        #expect(await daemon.wait { !daemon.events("rescan").isEmpty }, "\(daemon.text)")
        try WatchSafetyTests.drop(SafetyFixtures.jpeg(seed: 10), as: "pets/rex/a.jpg", in: folder)
        #expect(await daemon.wait { !daemon.events("filed").isEmpty }, "\(daemon.text)")
        // No reader holds it open: a writer that does not wait is refused (ENXIO).
        let writer = open(pipe, O_WRONLY | O_NONBLOCK)
        #expect(writer == -1 && errno == ENXIO)
        if writer >= 0 { close(writer) }
        #expect(await daemon.stop().status == 0)

        let said = daemon.events("passed-over")
        #expect(said.count == 1, "\(daemon.text)")
        #expect(said.first?["source"] == pipe)
        #expect(said.first?["level"] == "warning")
        #expect(said.first?["code"] == "not-a-regular-file")
        #expect(said.first?["reason"] == "it is a FIFO (a named pipe), not a regular file; Dossier reads only regular files, "
            + "and never opens anything else; it stays in the inbox")
        #expect(daemon.events("quarantined").isEmpty, "\(daemon.text)")
        #expect(WatchSafetyTests.inboxFiles(folder) == ["pets/rex/b.jpg"])
    }
}
