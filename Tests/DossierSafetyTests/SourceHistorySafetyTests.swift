import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// A log is known by its history, not its path: only the same file, edited where it lies, replaces
/// the records its earlier versions gave; a new file on a path Dossier emptied, a quarantined file
/// retried, and a copy elsewhere add theirs, and records two copies gave stay until both are gone.
@Suite("A source is known by its history", .serialized)
struct SourceHistorySafetyTests {
    static func weights(_ folder: TemporaryFolder, subject: String = "pets/rex") -> [String] {
        WatchSafetyTests.recordLines(folder, subject: subject).compactMap { line -> String? in
            guard let record = try? JSONDecoder().decode(Record.self, from: Data(line.utf8)) else { return nil }
            return "\(record.date) \(record.measurements.first.map { RecordLine.number($0.value) } ?? "?")"
        }.sorted()
    }

    static func log(_ entries: [(day: Int, grams: Int)]) -> String {
        entries.map { "2024-03-\(String(format: "%02d", $0.day)) Rex weight \($0.grams) g\n" }.joined()
    }

    static func importing(_ path: String, in folder: TemporaryFolder, _ extra: [String] = []) throws -> DossierBinary.Result {
        let result = try DossierBinary.run(["import", "--create", path, "--library", "Library", "--json"] + extra, in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        return result
    }

    static func replaced(_ result: DossierBinary.Result) -> Int? {
        (result.outcomes.first?["records"] as? [String: Any])?["removed"] as? Int
    }

    @Test("an edited log replaces its earlier versions' records, however many versions back a line was written")
    func anEditReplacesTheWholeLineage() throws {
        let folder = try WatchSafetyTests.prepare()
        try folder.write(SourceHistorySafetyTests.log([(1, 400), (2, 410)]), to: "rex.txt")
        _ = try SourceHistorySafetyTests.importing("rex.txt", in: folder)
        try folder.write(SourceHistorySafetyTests.log([(1, 400), (3, 420)]), to: "rex.txt")
        #expect(SourceHistorySafetyTests.replaced(try SourceHistorySafetyTests.importing("rex.txt", in: folder)) == 1)
        // The 1 March line, written in the first version and kept by the second, goes with the third.
        try folder.write(SourceHistorySafetyTests.log([(3, 420)]), to: "rex.txt")
        #expect(SourceHistorySafetyTests.replaced(try SourceHistorySafetyTests.importing("rex.txt", in: folder)) == 1)
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-03 420"])
        // Every version stays readable in the library's kept copies.
        #expect(folder.files(under: "Library/sources").count == 3)
    }

    @Test("a new log on a path `--move` emptied is a new source: its records are added, the first one's stay")
    func aNewFileOnAnEmptiedPathIsNew() throws {
        let folder = try WatchSafetyTests.prepare()
        try folder.write(SourceHistorySafetyTests.log([(1, 400), (2, 410)]), to: "inbox/weekly.txt")
        _ = try SourceHistorySafetyTests.importing("inbox/weekly.txt", in: folder, ["--move"])
        #expect(!FileManager.default.fileExists(atPath: folder.path("inbox/weekly.txt")))
        try folder.write(SourceHistorySafetyTests.log([(8, 430), (9, 440)]), to: "inbox/weekly.txt")
        let second = try SourceHistorySafetyTests.importing("inbox/weekly.txt", in: folder, ["--move"])
        #expect(SourceHistorySafetyTests.replaced(second) == 0)
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 430", "2024-03-09 440"])
        // And a third, edited where it lies after its import (no --move), replaces only its own lines.
        try folder.write(SourceHistorySafetyTests.log([(15, 450)]), to: "inbox/weekly.txt")
        _ = try SourceHistorySafetyTests.importing("inbox/weekly.txt", in: folder)
        try folder.write(SourceHistorySafetyTests.log([(15, 455)]), to: "inbox/weekly.txt")
        #expect(SourceHistorySafetyTests.replaced(try SourceHistorySafetyTests.importing("inbox/weekly.txt", in: folder)) == 1)
        #expect(SourceHistorySafetyTests.weights(folder)
            == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 430", "2024-03-09 440", "2024-03-15 455"])
    }

    @Test("an index lost and rebuilt keeps what the disk shows of each log's history: a new file on an emptied path still adds")
    func aRebuiltIndexKeepsTheHistoryTheDiskShows() throws {
        let folder = try WatchSafetyTests.prepare()
        try folder.write(SourceHistorySafetyTests.log([(20, 600), (21, 610)]), to: "inbox/n.txt")
        _ = try SourceHistorySafetyTests.importing("inbox/n.txt", in: folder, ["--move"])
        try folder.write(SourceHistorySafetyTests.log([(1, 400), (2, 410), (3, 420)]), to: "a/rex.txt")
        _ = try SourceHistorySafetyTests.importing("a", in: folder)
        try FileManager.default.removeItem(atPath: folder.path("Library/.dossier/index.sqlite"))
        // A new note on the emptied path.
        try folder.write(SourceHistorySafetyTests.log([(9, 500)]), to: "inbox/n.txt")
        let new = try SourceHistorySafetyTests.importing("inbox/n.txt", in: folder)
        #expect(new.standardError.contains("its index was missing; rebuilt it"), "\(new.standardError)")
        #expect(SourceHistorySafetyTests.replaced(new) == 0)
        #expect(SourceHistorySafetyTests.weights(folder)
            == ["2024-03-01 400", "2024-03-02 410", "2024-03-03 420", "2024-03-09 500", "2024-03-20 600", "2024-03-21 610"])
        // Edited where it lies since the rebuild (its bytes still those its records name), a
        // replaces as an edit does.
        try folder.write(SourceHistorySafetyTests.log([(1, 400), (2, 415), (3, 420)]), to: "a/rex.txt")
        #expect(SourceHistorySafetyTests.replaced(try SourceHistorySafetyTests.importing("a", in: folder)) == 1)
        #expect(SourceHistorySafetyTests.weights(folder)
            == ["2024-03-01 400", "2024-03-02 415", "2024-03-03 420", "2024-03-09 500", "2024-03-20 600", "2024-03-21 610"])
    }

    @Test("killed at any moment while an edited log replaces its records, a later edit leaves only its own")
    func aKillDuringAReplacementLeavesNoOrphans() throws {
        let folder = try WatchSafetyTests.prepare()
        func version(_ grams: Int) -> String {
            (0..<6000).map { "\(2000 + $0 / 336)-\(String(format: "%02d", $0 % 336 / 28 + 1))-\(String(format: "%02d", $0 % 28 + 1)) "
                + "Rex weight \(grams + $0 % 7) g\n" }.joined()
        }
        try folder.write(version(100), to: "rex.txt")
        _ = try SourceHistorySafetyTests.importing("rex.txt", in: folder)
        let seed = TestSeed()
        var generator = seed.generator
        for attempt in 0..<4 {
            try folder.write(version(200 + attempt * 10), to: "rex.txt")
            let process = DossierBinary.process(["import", "--create", "rex.txt", "--library", "Library"], in: folder.url)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 50_000...1_200_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try folder.write(version(900), to: "rex.txt")
        _ = try SourceHistorySafetyTests.importing("rex.txt", in: folder)
        let values = Set(SourceHistorySafetyTests.weights(folder).map { Int($0.split(separator: " ")[1]) ?? 0 })
        #expect(values == Set(900..<907), "records of killed versions left: \(values.filter { $0 < 900 }.sorted()); \(seed)")
    }

    @Test("records two identical logs gave stay until both are gone: an edit of one hands them to the other")
    func recordsOfTwoCopiesStayUntilBothAreGone() throws {
        let folder = try WatchSafetyTests.prepare()
        let both = SourceHistorySafetyTests.log([(1, 400), (2, 410), (3, 420)])
        try folder.write(both, to: "a/rex.txt")
        try folder.write(both, to: "b/rex.txt")
        _ = try SourceHistorySafetyTests.importing("a", in: folder)
        _ = try SourceHistorySafetyTests.importing("b", in: folder)
        // The 2 March line taken out of a: b still has it.
        try folder.write(SourceHistorySafetyTests.log([(1, 400), (3, 420)]), to: "a/rex.txt")
        #expect(SourceHistorySafetyTests.replaced(try SourceHistorySafetyTests.importing("a", in: folder)) == 0)
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 410", "2024-03-03 420"])
        let kept = WatchSafetyTests.recordLines(folder).compactMap { try? JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
        #expect(kept.first { $0.date.description == "2024-03-02" }?.source.path == folder.path("b/rex.txt"))
        // Out of b too: now it goes.
        try folder.write(SourceHistorySafetyTests.log([(1, 400), (3, 420)]), to: "b/rex.txt")
        #expect(SourceHistorySafetyTests.replaced(try SourceHistorySafetyTests.importing("b", in: folder)) == 1)
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-03 420"])
    }

    @Test("the daemon: a new log with the name of one it filed and removed adds its records and replaces none")
    func theDaemonNeverReplacesAFileItRemoved() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try WatchSafetyTests.drop(Array(SourceHistorySafetyTests.log([(1, 400), (2, 410)]).utf8), as: "pets/rex/weekly.txt", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 && WatchSafetyTests.inboxFiles(folder).isEmpty }, "\(daemon.text)")
        // Syncthing deleted it on the phone; the person started a new note with the same name.
        try WatchSafetyTests.drop(Array(SourceHistorySafetyTests.log([(8, 430), (9, 440)]).utf8), as: "pets/rex/weekly.txt", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 2 && WatchSafetyTests.inboxFiles(folder).isEmpty }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 430", "2024-03-09 440"])
        let second = try #require(daemon.objects.filter { $0["event"] as? String == "filed" }.last)
        #expect(second["recordsAdded"] as? Int == 2)
        #expect(second["recordsReplaced"] as? Int == 0)
    }

    @Test("with --keep, a log deleted from the inbox and a new one of its name later: the new one adds, replacing nothing")
    func aKeptLogDeletedAndWrittenAnewIsNew() async throws {
        let folder = try WatchSafetyTests.prepare()
        var daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--keep"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try WatchSafetyTests.drop(Array(SourceHistorySafetyTests.log([(1, 400), (2, 410)]).utf8), as: "pets/rex/w.txt", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        // Deleted by hand while it runs, then a new note of that name.
        try FileManager.default.removeItem(atPath: folder.path("inbox/pets/rex/w.txt"))
        // Time for the daemon to see the deletion before the new note lands (it logs nothing for it).
        try await Task.sleep(for: .milliseconds(500))
        try WatchSafetyTests.drop(Array(SourceHistorySafetyTests.log([(8, 430)]).utf8), as: "pets/rex/w.txt", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 2 }, "\(daemon.text)")
        #expect(daemon.objects.filter { $0["event"] as? String == "filed" }.last?["recordsReplaced"] as? Int == 0)
        #expect(await daemon.stop().status == 0)
        // Deleted while it is not running, and a new one there before it starts again.
        try FileManager.default.removeItem(atPath: folder.path("inbox/pets/rex/w.txt"))
        daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--keep"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try WatchSafetyTests.drop(Array(SourceHistorySafetyTests.log([(15, 450)]).utf8), as: "pets/rex/w.txt", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 430", "2024-03-15 450"])
    }

    @Test("a quarantined log retried after a newer one from the same path was filed adds its records, and the newer ones stay")
    func aQuarantineRetryIsANewSource() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        // No subject yet for Mochi: quarantined.
        try WatchSafetyTests.drop(WatchSafetyTests.log(0..<2, name: "Mochi"), as: "notes.txt", in: folder)
        #expect(await daemon.wait { daemon.events("quarantined").count == 1 }, "\(daemon.text)")
        #expect(try DossierBinary.run(["subjects", "add", "pets/mochi", "--name", "Mochi", "--library", "Library"], in: folder.url).status == 0)
        try WatchSafetyTests.drop(WatchSafetyTests.log(10..<12, name: "Mochi"), as: "notes.txt", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 && WatchSafetyTests.inboxFiles(folder).isEmpty }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        let retried = try DossierBinary.run(["quarantine", "retry", "--all", "--library", "Library", "--json"], in: folder.url)
        #expect(retried.status == 0, "\(retried.standardOutput)\(retried.standardError)")
        #expect((retried.outcomes.first?["records"] as? [String: Any])?["removed"] as? Int == 0)
        let days = WatchSafetyTests.recordLines(folder, subject: "pets/mochi")
            .compactMap { try? JSONDecoder().decode(Record.self, from: Data($0.utf8)).date.description }.sorted()
        #expect(days == ["2024-03-01", "2024-03-02", "2024-03-11", "2024-03-12"])
    }
}
