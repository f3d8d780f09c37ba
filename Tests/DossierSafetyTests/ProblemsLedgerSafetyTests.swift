import DossierCore
import Foundation
import DossierTestSupport
import Testing

/// Every line that was not filed stays findable: in the problems ledger with the library's copy
/// of its source, until it is retried (after its cause is fixed) or dismissed.
@Suite("The problems ledger keeps every line that was not filed")
struct ProblemsLedgerSafetyTests {
    static let noSubject = "no subject: give --subject KIND/ID, or put the file under a pets/<id> or children/<id> folder"

    static let log = "그냥 메모\n2024-03-02 레오 귀뚜라미 5마리\n2024-03-03 레우 탈피 (완탈)\n물갈이 했음\n2024-03-05 레오 체중 45g\n"

    /// A library with pets/leo (레오) and a log naming 레오, a misspelt 레우 and nobody, imported
    /// with --move (the log is gone from its folder once imported), or without.
    static func importedLog(in folder: TemporaryFolder, move: Bool = true) throws -> (keptPath: String, source: String) {
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "레오", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        try folder.write(log, to: "notes/shared.txt")
        let imported = try DossierBinary.run(["import", "--create", "notes", "--library", "Library", "--json"] + (move ? ["--move"] : []),
                                             in: folder.url)
        #expect(imported.status == 3, "\(imported.standardOutput)")
        let kept = try #require(folder.files(under: "Library/sources").first)
        return ("sources/\(kept)", folder.path("notes/shared.txt"))
    }

    @Test("Lines that were not filed are listed with their source, kept copy, line, text and reason")
    func problemsAreListed() throws {
        let folder = try TemporaryFolder()
        let (kept, source) = try ProblemsLedgerSafetyTests.importedLog(in: folder)

        let listed = try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url)
        #expect(listed.status == 0)
        let problems = listed.jsonLines
        #expect(problems.count == 3)
        #expect(problems.map { $0["line"] as? Int } == [1, 3, 4])
        #expect(problems.map { $0["text"] as? String } == ["그냥 메모", "2024-03-03 레우 탈피 (완탈)", "물갈이 했음"])
        #expect(problems.allSatisfy { $0["source"] as? String == source && $0["kept"] as? String == kept })
        #expect(problems.map { $0["reason"] as? String } == ["no date on this line or above it",
                                                            ProblemsLedgerSafetyTests.noSubject, ProblemsLedgerSafetyTests.noSubject])

        let text = try DossierBinary.run(["problems", "--library", "Library"], in: folder.url)
        #expect(text.standardOutput.hasPrefix("#1  \(source):1: no date on this line or above it\n"
            + "      그냥 메모\n      kept as \(kept)\n"), "\(text.standardOutput)")
        #expect(text.standardOutput.hasSuffix("3 problems. Fix the cause, then `dossier problems retry`; or `dossier problems dismiss ID`.\n"))
    }

    @Test("A retry after the cause is fixed files what now resolves, from the kept copy, and keeps what does not")
    func retryFilesWhatNowResolves() throws {
        let folder = try TemporaryFolder()
        let (kept, source) = try ProblemsLedgerSafetyTests.importedLog(in: folder)
        #expect(!FileManager.default.fileExists(atPath: source))
        // The misspelt name becomes a subject of its own (or, with `subjects edit`, an alias).
        let added = try DossierBinary.run(["subjects", "add", "pets/leu", "--name", "레우", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)

        let retried = try DossierBinary.run(["problems", "retry", "--library", "Library"], in: folder.url)
        #expect(retried.status == 0, "\(retried.standardError)")
        #expect(retried.standardOutput.hasSuffix("1 problem remains (see `dossier problems`).\n"), "\(retried.standardOutput)")
        // The shed under the misspelt name, and the water change written below it.
        let yearFile = try String(contentsOfFile: folder.path("Library/pets/leu/records/2024.jsonl"), encoding: .utf8)
        let records = try yearFile.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.map { $0["kind"] as? String } == ["shedding", "cleaning"])
        let sources = records.compactMap { $0["source"] as? [String: Any] }
        #expect(sources.map { $0["path"] as? String } == [source, source])
        #expect(sources.map { $0["line"] as? Int } == [3, 4])
        #expect(sources.map { $0["kept"] as? String } == [kept, kept])

        let remaining = try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url).jsonLines
        #expect(remaining.map { $0["line"] as? Int } == [1])
        // Retrying again changes nothing: the filed record is there once.
        _ = try DossierBinary.run(["problems", "retry", "--library", "Library"], in: folder.url)
        #expect(try String(contentsOfFile: folder.path("Library/pets/leu/records/2024.jsonl"), encoding: .utf8) == yearFile)
    }

    @Test("A dismissed problem leaves the ledger; an unknown id is an error that names it")
    func dismissRemovesOneProblem() throws {
        let folder = try TemporaryFolder()
        _ = try ProblemsLedgerSafetyTests.importedLog(in: folder)
        let dismissed = try DossierBinary.run(["problems", "dismiss", "1", "--library", "Library"], in: folder.url)
        #expect(dismissed.status == 0)
        #expect(dismissed.standardOutput == "Dismissed problem #1.\n")
        let unknown = try DossierBinary.run(["problems", "dismiss", "1", "--library", "Library"], in: folder.url)
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "dossier: no problem with the id #1 in \(folder.path("Library")) (see `dossier problems`)\n")
        #expect(try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url).jsonLines.count == 2)
    }

    /// `#id line text` for each problem in the ledger, as `problems --json` lists them.
    static func listed(_ folder: TemporaryFolder) throws -> [String] {
        try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url).jsonLines.map {
            "#\($0["id"] as? Int ?? 0) \($0["line"] as? Int ?? 0) \($0["text"] as? String ?? "")"
        }
    }

    static let firstListing = ["#1 1 그냥 메모", "#2 3 2024-03-03 레우 탈피 (완탈)", "#3 4 물갈이 했음"]

    @Test("A problem keeps its id through `problems retry` until it is solved, and `problems dismiss` takes the id the listing showed")
    func aProblemKeepsItsIdThroughRetries() throws {
        let folder = try TemporaryFolder()
        _ = try ProblemsLedgerSafetyTests.importedLog(in: folder)
        let foundAt = try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url).jsonLines
            .map { $0["found_at"] as? String }
        #expect(try ProblemsLedgerSafetyTests.listed(folder) == ProblemsLedgerSafetyTests.firstListing)

        // Nothing fixed: every problem is still there, under its id, found when it was first found.
        #expect(try DossierBinary.run(["problems", "retry", "--library", "Library"], in: folder.url).status == 0)
        #expect(try ProblemsLedgerSafetyTests.listed(folder) == ProblemsLedgerSafetyTests.firstListing)
        #expect(try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url).jsonLines
            .map { $0["found_at"] as? String } == foundAt)

        // Two solved: they go; the one left keeps its id.
        let added = try DossierBinary.run(["subjects", "add", "pets/leu", "--name", "레우", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)
        #expect(try DossierBinary.run(["problems", "retry", "--library", "Library"], in: folder.url).status == 0)
        #expect(try ProblemsLedgerSafetyTests.listed(folder) == ["#1 1 그냥 메모"])

        let dismissed = try DossierBinary.run(["problems", "dismiss", "1", "--library", "Library"], in: folder.url)
        #expect(dismissed.status == 0, "\(dismissed.standardError)")
        #expect(dismissed.standardOutput == "Dismissed problem #1.\n")
        #expect(try ProblemsLedgerSafetyTests.listed(folder).isEmpty)
    }

    @Test("A problem keeps its id when the same log is imported again, moved away and back or left in place", arguments: [true, false])
    func aProblemKeepsItsIdThroughAReimport(movedAway: Bool) throws {
        let folder = try TemporaryFolder()
        _ = try ProblemsLedgerSafetyTests.importedLog(in: folder, move: movedAway)
        try folder.write(ProblemsLedgerSafetyTests.log, to: "notes/shared.txt")
        let again = try DossierBinary.run(["import", "--create", "notes", "--library", "Library"], in: folder.url)
        #expect(again.status == 3, "\(again.standardOutput)\(again.standardError)")
        #expect(try ProblemsLedgerSafetyTests.listed(folder) == ProblemsLedgerSafetyTests.firstListing)
    }

    @Test("A problem keeps its id when an edited log with a line inserted above it is imported again; a new problem gets a new id")
    func aProblemKeepsItsIdWhenItsLineMoves() throws {
        let folder = try TemporaryFolder()
        _ = try ProblemsLedgerSafetyTests.importedLog(in: folder, move: false)
        let log = try folder.write("그냥 메모\n2024-03-01 레오 체중 44g\n2024-03-02 레오 귀뚜라미 5마리\n2024-03-03 레우 탈피 (완탈)\n"
            + "물갈이 했음\n2024-03-05 레오 체중 45g\n2024-03-06 코코 산책\n", to: "notes/shared.txt")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: log)
        let edited = try DossierBinary.run(["import", "--create", "notes", "--library", "Library"], in: folder.url)
        #expect(edited.status == 3, "\(edited.standardOutput)\(edited.standardError)")
        #expect(try ProblemsLedgerSafetyTests.listed(folder)
            == ["#1 1 그냥 메모", "#2 4 2024-03-03 레우 탈피 (완탈)", "#3 5 물갈이 했음", "#4 7 2024-03-06 코코 산책"])

        // The note about nobody deleted: its problem is solved, and goes; the others keep theirs.
        try "그냥 메모\n2024-03-01 레오 체중 44g\n2024-03-02 레오 귀뚜라미 5마리\n2024-03-03 레우 탈피 (완탈)\n"
            .write(toFile: log, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 120)], ofItemAtPath: log)
        #expect(try DossierBinary.run(["import", "--create", "notes", "--library", "Library"], in: folder.url).status == 3)
        #expect(try ProblemsLedgerSafetyTests.listed(folder) == ["#1 1 그냥 메모", "#2 4 2024-03-03 레우 탈피 (완탈)"])
    }

    @Test("The problems of a folder that holds no library are not an empty list but an error")
    func aMissingLibraryIsNamed() throws {
        let folder = try TemporaryFolder()
        let result = try DossierBinary.run(["problems", "--library", "Nowhere"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.standardError == "dossier: there is no library at \(folder.path("Nowhere")) (if it is on a drive, is the drive mounted?); "
            + "make one with `dossier init \(folder.path("Nowhere"))`, or give --library or DOSSIER_LIBRARY\n")
    }

    @Test("Importing an edited log again replaces the records its earlier version made, and says how many",
          arguments: [false, true])
    func anEditedLogReplacesItsEarlierRecords(rebuildingTheIndexBetween rebuild: Bool) throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "레오", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)
        let log = try folder.write("2024-03-02 체중 5g\n2024-03-04 귀뚜라미 5마리\n2024-03-09 물갈이\n", to: "notes/leo.txt")
        let first = try DossierBinary.run(["import", log, "--subject", "pets/leo", "--library", "Library", "--json"], in: folder.url)
        #expect(first.status == 0)

        if rebuild {
            // The index lost: what it knew (kept copies, which version of a source gave which
            // records) is read back from the folders.
            try FileManager.default.removeItem(atPath: folder.path("Library/.dossier/index.sqlite"))
            let rebuilt = try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url)
            #expect(rebuilt.status == 0, "\(rebuilt.standardError)")
        }
        // The typo fixed, one line deleted.
        try "2024-03-02 체중 50g\n2024-03-04 귀뚜라미 5마리\n".write(toFile: log, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: log)
        let second = try DossierBinary.run(["import", log, "--subject", "pets/leo", "--library", "Library", "--json"],
                                           in: folder.url)
        #expect(second.status == 0)
        #expect(second.outcomes.first?["records"] as? [String: Int] == ["added": 1, "duplicate": 1, "removed": 2])
        #expect(second.summary?["recordsRemoved"] as? Int == 2)

        let lines = try String(contentsOfFile: folder.path("Library/pets/leo/records/2024.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        let texts = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["text"] as? String }
        #expect(texts == ["2024-03-02 체중 50g", "2024-03-04 귀뚜라미 5마리"])

        let terminal = try DossierBinary.run(["import", log, "--subject", "pets/leo", "--library", "Library"], in: folder.url)
        #expect(terminal.status == 0)
    }
}
