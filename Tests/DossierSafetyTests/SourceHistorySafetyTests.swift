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
        let result = try DossierBinary.run(["import", path, "--library", "Library", "--json"] + extra, in: folder.url)
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
        #expect(second["records_added"] as? Int == 2)
        #expect(second["records_replaced"] as? Int == 0)
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
