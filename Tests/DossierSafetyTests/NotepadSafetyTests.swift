import DossierCore
import Foundation
import DossierTestSupport
import Testing

/// A notepad log is read as its writer meant it: no line filed under a day it was not written
/// on, no text lost for looking like a name, no log of mistakes waved through as prose.
@Suite("Notepad logs: impossible dates, words that are no names, logs of only mistakes")
struct NotepadSafetyTests {
    /// Each record of a year file as (date, kind, measurements as "name value unit", text).
    static func records(_ folder: TemporaryFolder, _ yearFile: String) throws -> [[String]] {
        let text = try String(contentsOfFile: folder.path(yearFile), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let measurements = (record["measurements"] as? [[String: Any]] ?? []).map {
                "\($0["name"] ?? "") \($0["value"] ?? "") \($0["unit"] ?? "")"
            }
            return [record["date"] as? String ?? "", record["kind"] as? String ?? ""] + measurements
                + [record["text"] as? String ?? ""]
        }
    }

    @Test("A line with an impossible date is a problem, its digits never weights, and the line under it is not dated by the day before")
    func impossibleDatesAreReported() throws {
        let folder = try TemporaryFolder()
        try folder.write("2023-02-28 체중 50g\n2023-02-30 체중 51g\n귀뚜라미 3마리\n2월 30일 체중 53g\n2023-03-01 체중 52g\n"
                         + "9999-12-31 체중 54g\n",
                         to: "dump/pets/leo/weights.txt")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move"], in: folder.url)
        #expect(imported.status == 3, "\(imported.standardError)")
        #expect(try NotepadSafetyTests.records(folder, "Library/pets/leo/records/2023.jsonl") == [
            ["2023-02-28", "weight", "weight 50 g", "2023-02-28 체중 50g"],
            ["2023-03-01", "weight", "weight 52 g", "2023-03-01 체중 52g"],
        ])
        #expect(folder.files(under: "Library/pets/leo/records") == ["2023.jsonl"])
        let problems = try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url).jsonLines
        #expect(problems.map { "\($0["line"] ?? ""): \($0["reason"] ?? "")" } == [
            "2: impossible date '2023-02-30': no such day",
            "3: under the impossible date '2023-02-30' of line 2",
            "4: impossible date '2월 30일': no such day",
            "6: impossible date '9999-12-31': no such day",
        ])
        // --move took the log: its lines that were not filed are in the library's kept copy.
        #expect(!FileManager.default.fileExists(atPath: folder.path("dump/pets/leo/weights.txt")))
        let kept = try #require(problems.first?["kept"] as? String)
        #expect(try String(contentsOfFile: folder.path("Library/\(kept)"), encoding: .utf8).contains("2023-02-30 체중 51g\n귀뚜라미 3마리\n"))
    }

    @Test("Time-of-day and note words before a colon or dash are text: every line of a one-pet log is filed")
    func timeOfDayWordsAreNoNames() throws {
        let folder = try TemporaryFolder()
        let log = "2024-03-01\n메모: 은신처 교체\n아침: 귀뚜라미 2\n저녁 - 밀웜 3\nMorning: fed 2 crickets\nNote - shed today\n"
            + "Hide: moved to the warm side\n"
        try folder.write(log, to: "dump/pets/leo/daily.txt")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
        #expect(imported.status == 0)
        #expect(!imported.standardError.contains("problem"), "\(imported.standardError)")
        #expect(try NotepadSafetyTests.records(folder, "Library/pets/leo/records/2024.jsonl") == [
            ["2024-03-01", "memo", "메모: 은신처 교체"],
            ["2024-03-01", "feeding", "cricket 2 count", "아침: 귀뚜라미 2"],
            ["2024-03-01", "feeding", "mealworm 3 count", "저녁 - 밀웜 3"],
            ["2024-03-01", "feeding", "cricket 2 count", "Morning: fed 2 crickets"],
            ["2024-03-01", "shedding", "Note - shed today"],
            ["2024-03-01", "memo", "Hide: moved to the warm side"],
        ])
    }

    @Test("A log whose every entry names an unknown subject fails, each line reported and ledgered, and --move keeps it")
    func aLogOfUnknownNamesFails() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "레오", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)
        try folder.write("2024-03-01 레우: 탈피\n2024-03-02 Zorro: fed\n", to: "notes/shared.txt")
        let imported = try DossierBinary.run(["import", "--create", "notes", "--library", "Library", "--move"], in: folder.url)
        #expect(imported.status == 1)
        let source = folder.path("notes/shared.txt")
        #expect(imported.standardOutput.contains("""
            failed \(source): nothing filed: every entry has a problem (2 lines); fix them and run `dossier problems retry`
              read: 2 lines -> 0 records, 2 problems; short dates (5/3) month first, as the library's monthFirst says
              problem: \(source): line 1: unknown name '레우' (did you mean 레오?)
              problem: \(source): line 2: unknown name 'Zorro'
            """), "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("1 failed"))
        #expect(FileManager.default.fileExists(atPath: source))
        let problems = try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url).jsonLines
        #expect(problems.map { $0["text"] as? String } == ["2024-03-01 레우: 탈피", "2024-03-02 Zorro: fed"])
    }

    @Test("Prose with no dates at all is still skipped, not failed")
    func proseIsSkipped() throws {
        let folder = try TemporaryFolder()
        try folder.write("Shopping list\nmore crickets\nnew heat mat\n", to: "notes/list.txt")
        let imported = try DossierBinary.run(["import", "--create", "notes", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3)
        #expect(imported.outcomes.map { $0["status"] as? String } == ["skipped"])
        #expect(imported.outcomes.first?["error"] as? String
            == "\(folder.path("notes/list.txt")): no dated entries in it (3 lines without a date)")
        // Not out of view: the file is one problem in the ledger, with a kept copy of its bytes.
        let problems = try DossierBinary.run(["problems", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect(problems.count == 1)
        #expect(problems.first?["reason"] as? String == "no dated entries in it (3 lines without a date)")
        let kept = try #require(problems.first?["kept"] as? String)
        #expect(try String(contentsOfFile: folder.path("Library/\(kept)"), encoding: .utf8) == "Shopping list\nmore crickets\nnew heat mat\n")
        let listed = try DossierBinary.run(["problems", "--library", "Library"], in: folder.url)
        #expect(!listed.standardOutput.contains("No problems"))
        #expect(listed.standardOutput.contains("no dated entries in it (3 lines without a date)"))
        // Imported again, it is still one problem, not two.
        #expect(try DossierBinary.run(["import", "--create", "notes", "--library", "Library"], in: folder.url).status == 3)
        #expect(try DossierBinary.run(["problems", "--library", "Library", "--json"], in: folder.url).jsonLines.count == 1)
    }

    @Test("A log line over 1 MiB is a problem, not a record; the lines around it are filed")
    func anOverlongLineIsAProblem() throws {
        let folder = try TemporaryFolder()
        let blob = "2024-03-02 " + String(repeating: "QUJD", count: 3 << 18)
        try folder.write("2024-03-01 체중 45g\n\(blob)\r\n2024-03-03 탈피\n", to: "dump/pets/leo/log.txt")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
        #expect(imported.status == 3)
        #expect(try NotepadSafetyTests.records(folder, "Library/pets/leo/records/2024.jsonl") == [
            ["2024-03-01", "weight", "weight 45 g", "2024-03-01 체중 45g"],
            ["2024-03-03", "shedding", "2024-03-03 탈피"],
        ])
        let problems = try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url).jsonLines
        #expect(problems.map { "\($0["line"] ?? ""): \($0["reason"] ?? "")" }
            == ["2: the line is \(blob.utf8.count) bytes long, over the 1 MiB a line may have: not read"])
        #expect(problems.first?["text"] == nil || problems.first?["text"] is NSNull)
    }
}
