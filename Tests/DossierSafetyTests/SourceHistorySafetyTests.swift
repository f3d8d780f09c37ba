import DossierCore
import DossierTestSupport
import Foundation
import Glibc
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

    /// Deletes the file at `path` and writes `text` as a new file there (most file systems give it
    /// the freed inode's number at once).
    static func replaceFile(at path: String, with text: String) throws {
        try FileManager.default.removeItem(atPath: path)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    }

    /// Writes `text` into a new file beside `path` and renames it over `path`, as an editor saves.
    static func saveByRename(_ text: String, at path: String) throws {
        let temporary = (path as NSString).deletingLastPathComponent + "/.\(UUID().uuidString).swp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, path) == 0)
    }

    static func filedEvents(_ daemon: WatchDaemon) -> [[String: Any]] {
        daemon.objects.filter { $0["event"] as? String == "filed" }
    }

    @Test("import: an unrelated note put where a log was read is a new source: its records are added, the log's stay; an edit in place or a save by rename that carries the log's lines on replaces, and says which records")
    func importTellsAnEditFromANewFile() throws {
        let folder = try WatchSafetyTests.prepare()
        let path = try folder.write(SourceHistorySafetyTests.log([(1, 400), (2, 410)]), to: "pets/rex/notes.txt")
        _ = try SourceHistorySafetyTests.importing("pets", in: folder)
        // Deleted, and a new note of the same name: nothing of the log in it.
        try SourceHistorySafetyTests.replaceFile(at: path, with: SourceHistorySafetyTests.log([(8, 430), (9, 440)]))
        let new = try SourceHistorySafetyTests.importing("pets", in: folder)
        #expect(SourceHistorySafetyTests.replaced(new) == 0, "\(new.standardOutput)")
        #expect(new.outcomes.first?["replaced"] == nil)
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 430", "2024-03-09 440"])

        // Rewritten where it lies, every line changed: the same file, edited; its lines replace.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(SourceHistorySafetyTests.log([(8, 431), (9, 441)]).utf8))
        try handle.close()
        let inPlace = try SourceHistorySafetyTests.importing("pets", in: folder)
        #expect(SourceHistorySafetyTests.replaced(inPlace) == 2, "\(inPlace.standardOutput)")
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 431", "2024-03-09 441"])

        // Saved by an editor that writes a new file and renames it over: its lines carried on, one
        // corrected and one added; the corrected one replaces, and the outcome says which.
        try SourceHistorySafetyTests.saveByRename(SourceHistorySafetyTests.log([(8, 431), (9, 442), (10, 450)]), at: path)
        let saved = try SourceHistorySafetyTests.importing("pets", in: folder)
        #expect(SourceHistorySafetyTests.replaced(saved) == 1, "\(saved.standardOutput)")
        #expect(saved.outcomes.first?["replaced"] as? [String] == ["2024-03-09 weight: 2024-03-09 Rex weight 441 g"], "\(saved.standardOutput)")
        #expect(SourceHistorySafetyTests.weights(folder)
            == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 431", "2024-03-09 442", "2024-03-10 450"])
        // In text too.
        try SourceHistorySafetyTests.saveByRename(SourceHistorySafetyTests.log([(8, 431), (9, 442), (10, 451)]), at: path)
        let text = try DossierBinary.run(["import", "pets", "--library", "Library"], in: folder.url)
        #expect(text.standardOutput.contains("1 of its earlier version replaced)\n"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("\n  replaced: 2024-03-10 weight: 2024-03-10 Rex weight 450 g\n"), "\(text.standardOutput)")
    }

    @Test("with --keep, a log deleted while the daemon is stopped and a new note of its name are two sources: the new one adds, and the log's records stay")
    func aKeptLogReplacedWhileTheDaemonIsStoppedIsNew() async throws {
        let folder = try WatchSafetyTests.prepare()
        var daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--keep"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try WatchSafetyTests.drop(Array(SourceHistorySafetyTests.log([(1, 400), (2, 410)]).utf8), as: "pets/rex/w.txt", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        try SourceHistorySafetyTests.replaceFile(at: folder.path("inbox/pets/rex/w.txt"), with: SourceHistorySafetyTests.log([(8, 430), (9, 440)]))

        daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--keep"])
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        let filed = try #require(SourceHistorySafetyTests.filedEvents(daemon).last)
        #expect(filed["recordsAdded"] as? Int == 2, "\(daemon.text)")
        #expect(filed["recordsReplaced"] as? Int == 0, "\(daemon.text)")
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 430", "2024-03-09 440"])

        // Edited where it lies: it replaces, and the log says which records.
        try folder.write(SourceHistorySafetyTests.log([(8, 430), (9, 445)]), to: "inbox/pets/rex/w.txt")
        #expect(await daemon.wait { daemon.events("filed").count == 2 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        let edited = try #require(SourceHistorySafetyTests.filedEvents(daemon).last)
        #expect(edited["recordsReplaced"] as? Int == 1, "\(daemon.text)")
        #expect(edited["replaced"] as? [String] == ["2024-03-09 weight: 2024-03-09 Rex weight 440 g"], "\(daemon.text)")
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 430", "2024-03-09 445"])
    }

    @Test("with --keep --poll, a log deleted and a new note of its name between two polls are two sources; an editor's save by rename between two polls replaces")
    func aKeptLogReplacedBetweenTwoPollsIsNew() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--keep", "--poll", "1"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try WatchSafetyTests.drop(Array(SourceHistorySafetyTests.log([(1, 400), (2, 410)]).utf8), as: "pets/rex/w.txt", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        // Both at once, well within a poll: the daemon never sees the path empty.
        try SourceHistorySafetyTests.replaceFile(at: folder.path("inbox/pets/rex/w.txt"), with: SourceHistorySafetyTests.log([(8, 430), (9, 440)]))
        #expect(await daemon.wait { daemon.events("filed").count == 2 }, "\(daemon.text)")
        #expect(SourceHistorySafetyTests.filedEvents(daemon).last?["recordsReplaced"] as? Int == 0, "\(daemon.text)")
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 430", "2024-03-09 440"])
        // Saved by rename, its lines carried on and one corrected: an edit.
        try SourceHistorySafetyTests.saveByRename(SourceHistorySafetyTests.log([(8, 435), (9, 440)]), at: folder.path("inbox/pets/rex/w.txt"))
        #expect(await daemon.wait { daemon.events("filed").count == 3 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        #expect(SourceHistorySafetyTests.filedEvents(daemon).last?["recordsReplaced"] as? Int == 1, "\(daemon.text)")
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 410", "2024-03-08 435", "2024-03-09 440"])
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
