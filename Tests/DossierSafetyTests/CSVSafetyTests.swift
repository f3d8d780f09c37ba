import Foundation
import DossierTestSupport
import Testing

/// CSV exports as apps really write them: ragged rows, quoted stamps with commas, a first
/// column titled with the child's name, a first row longer than any sniff, plural file names.
@Suite("CSV exports are read whole, as they are written")
struct CSVSafetyTests {
    static let notes = ["spit up a little", "fussy before, settled after", "fell asleep during", "burped twice",
                        "new bottle nipple", "half with daddy", "grandma fed", "after bath", "woke for it", "refused at first",
                        "\"hiccups\" again", "cluster feeding?"]

    /// One of a baby tracker's five exports: CRLF, `"1/13/26, 15:58"` stamps, a first column
    /// titled `Baby` or with the child's name, and the Note field only on the rows that have one.
    static func export(header: String, rows: Int, seed: Int, first: (Int) -> String = { _ in "Mina" },
                       cells: (Int) -> String?) -> (text: String, noted: Int) {
        var lines = [header]
        var noted = 0
        for index in 0..<rows {
            let day = 13 - index / 9, minutes = (index * 157 + seed * 31) % 1440
            var line = "\(first(index)),\"1/\(day)/26, \(minutes / 60):\(String(format: "%02d", minutes % 60))\""
            if let cells = cells(index) { line += ",\(cells)" }
            if (index * 7 + seed) % 11 == 0 {
                line += ",\(CSVSafetyTests.quoted(CSVSafetyTests.notes[(index + seed) % CSVSafetyTests.notes.count]))"
                noted += 1
            }
            lines.append(line)
        }
        return (lines.joined(separator: "\r\n") + "\r\n", noted)
    }

    static func quoted(_ note: String) -> String {
        note.contains(",") || note.contains("\"") ? "\"" + note.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : note
    }

    static func records(_ folder: TemporaryFolder, _ yearFile: String) throws -> [[String: Any]] {
        try String(contentsOfFile: folder.path(yearFile), encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("A baby tracker's five exports are read row for row: ragged Note fields, quoted stamps, the child's name as a title")
    func aBabyTrackerExportIsReadWhole() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "children/mina", "--name", "Mina", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)
        let exports = [
            ("Mina_formula.csv", CSVSafetyTests.export(header: "Baby,Time,Amount (oz.),Note", rows: 90, seed: 1) { ["3", "3.5", "4", "4.5"][$0 % 4] }),
            ("Mina_diaper.csv", CSVSafetyTests.export(header: "Mina,Time,Note", rows: 80, seed: 2,
                                                       first: { ["Wet", "Dirty", "Mixed"][$0 % 3] }, cells: { _ in nil })),
            ("Mina_sleep.csv", CSVSafetyTests.export(header: "Baby,Time,Duration(minutes),Note", rows: 70, seed: 3) { "\(20 + $0 * 13 % 160)" }),
            ("Mina_growth.csv", CSVSafetyTests.export(header: "Baby,Time,Weight (lb),Height (in),Head Size (in),Note", rows: 9, seed: 4) {
                "\(8 + $0 / 3).\($0 % 10),\(20 + $0 / 4),\(13 + $0 / 5)" }),
            ("Mina_pump.csv", CSVSafetyTests.export(header: "Baby,Time,Left (oz.),Right (oz.),Total (oz.),Note", rows: 40, seed: 5) {
                "2,2.\($0 % 10),4.\($0 % 10)" }),
        ]
        for (name, export) in exports { try folder.write(export.text, to: "export/\(name)") }
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.outcomes.map { $0["status"] as? String } == Array(repeating: "imported", count: 5))
        #expect(imported.outcomes.map { ($0["records"] as? [String: Any])?["added"] as? Int }.reduce(0) { $0 + ($1 ?? 0) } == 289)
        let records = try CSVSafetyTests.records(folder, "Library/children/mina/records/2026.jsonl")
        #expect(records.count == 289)
        #expect(records.allSatisfy { $0["subject"] as? String == "children/mina" })
        let formula = records.filter { ($0["source"] as? [String: Any])?["line"] as? Int == 2
            && (($0["source"] as? [String: Any])?["path"] as? String)?.hasSuffix("Mina_formula.csv") == true }
        #expect(formula.count == 1)
        #expect(formula.first?["date"] as? String == "2026-01-13T00:31")
        #expect(formula.first?["kind"] as? String == "feeding")
        #expect((formula.first?["measurements"] as? [[String: Any]])?.first?["unit"] as? String == "ml")
        // Rows with a note keep it; the diaper file's first column, titled with her name, holds
        // the diaper's state.
        let noted = exports.map(\.1.noted).reduce(0, +)
        #expect(records.filter { ($0["text"] as? String).map { text in CSVSafetyTests.notes.contains { text.contains($0) } } ?? false }.count
            == noted)
        #expect(records.contains { ($0["fields"] as? [String: String])?["Mina"] == "Dirty" })
        let problems = try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url)
        #expect(problems.jsonLines.isEmpty)
    }

    @Test("A CSV whose first row holds a 5,000-character note, and one with 10,000 columns, are read as CSV, not as memos")
    func longFirstRowsAreStillCSV() throws {
        let folder = try TemporaryFolder()
        let words = ["shed", "in", "one", "piece", "after", "a", "long", "soak;", "basking", "more,", "eating", "well"]
        let note = (0..<900).map { words[($0 * 7 + $0 / 5) % words.count] }.joined(separator: " ").prefix(5000)
        try folder.write("date,weight (g),note\n2024-03-01,45,\"\(note)\"\n2024-03-02,46,ok\n", to: "in/pets/leo/care.csv")
        let header = ["date"] + (1..<10_000).map { "probe \($0)" }
        let row = { (day: Int) in ["2024-04-0\(day)"] + (1..<10_000).map { "\(($0 * day * 37) % 100)" } }
        // Named for a kind Dossier knows: a table of dates and nothing it reads is no care record.
        try folder.write([header, row(1), row(2)].map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n",
                         to: "in/pets/leo/cleaning-probes.csv")
        let imported = try DossierBinary.run(["import", "--create", "in", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0)
        let records = try CSVSafetyTests.records(folder, "Library/pets/leo/records/2024.jsonl")
        #expect(records.map { $0["date"] as? String } == ["2024-03-01", "2024-03-02", "2024-04-01", "2024-04-02"])
        #expect(records[0]["text"] as? String == String(note))
        #expect((records[0]["measurements"] as? [[String: Any]])?.first?["value"] as? Double == 45)
        #expect((records[2]["fields"] as? [String: String])?.count == 9_999)
        #expect((records[2]["fields"] as? [String: String])?["probe 3"] == "\(3 * 37 % 100)")
    }

    @Test("weights.csv holds kind weight, found by records --kind weight; a profile CSV (id,name,born,species) makes subjects")
    func pluralNamesAndProfiles() throws {
        let folder = try TemporaryFolder()
        try folder.write("date,grams\n2024-05-01,47\n2024-05-08,48.5\n", to: "in/pets/leo/weights.csv")
        try folder.write("id,name,born,species\nrex,Rex,2021-05-03,leopard gecko\nchildren/hana,하나,2024-02-10,\n", to: "in/profiles.csv")
        let imported = try DossierBinary.run(["import", "--create", "in", "--library", "Library"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        let weights = try DossierBinary.run(["records", "pets/leo", "--kind", "weight", "--json", "--library", "Library"], in: folder.url)
        #expect(weights.status == 0)
        #expect(weights.jsonLines.map { ($0["measurements"] as? [[String: Any]])?.first?["value"] as? Double } == [47, 48.5])
        let rex = try String(contentsOfFile: folder.path("Library/pets/rex/profile.json"), encoding: .utf8)
        #expect(rex.contains("\"born\" : \"2021-05-03\"") && rex.contains("\"species\" : \"Eublepharis macularius\""))
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/children/hana/profile.json")))
    }

    @Test("A copy of an export whose kept copy in the library was damaged is never removed by --move as a duplicate of it")
    func aDuplicateOfADamagedKeptCopyIsNotRemoved() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "children/mina", "--name", "Mina", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        let export = "Date,Time,Amount (ml)\r\n2024-03-05,07:10,120\r\n2024-03-05,10:40,90\r\n"
        try folder.write(export, to: "dump/children/mina/feedings.csv")
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url).status == 0)
        let kept = try #require(folder.files(under: "Library/sources").first)
        // Four bytes of the library's kept copy overwritten, its size unchanged.
        var damaged = Array(export.utf8)
        damaged.replaceSubrange(30..<34, with: Array("XXXX".utf8))
        try folder.write(damaged, to: "Library/sources/\(kept)")

        try folder.write(export, to: "again/children/mina/export.csv")
        let again = try DossierBinary.run(["import", "--create", "again", "--library", "Library", "--move", "--json"], in: folder.url)
        let outcome = try #require(again.outcomes.first)
        #expect(outcome["status"] as? String == "duplicate")
        #expect(outcome["sourceRemoved"] == nil, "\(again.standardOutput)")
        #expect(outcome["warnings"] as? [String] == ["not removed: its copy \(folder.path("Library/sources/\(kept)")) in the library "
                                                    + "does not hold the bytes that were filed"])
        // The user's bytes are still where they put them.
        #expect(try String(contentsOfFile: folder.path("again/children/mina/export.csv"), encoding: .utf8) == export)
    }

    @Test("--move of an export whose units were guessed or left unsettled keeps its kept copy and its problems; a retry after config/records.json names the unit re-reads it")
    func movingAnExportWithUnitlessNumbersKeepsWhatItNeeds() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "Leo", "--species", "Leopard Gecko",
                                           "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        // 520 can only be grams for a gecko (a guess, said); 45 could be g or kg (kept as text).
        let export = "Date,Name,Weight,Note\r\n2024-05-01,Leo,45,\"ate well, shed soon\"\r\n2024-06-01,Leo,520,\r\n"
        try folder.write(export, to: "dump/weights.csv")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(imported.status == 3, "\(imported.standardError)")
        #expect(imported.outcomes.first?["sourceRemoved"] as? Bool == true, "\(imported.outcomes)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("dump/weights.csv")))
        // The only copy of the user's export is now the library's, byte for byte, and the
        // problems point at it.
        let kept = try #require(folder.files(under: "Library/sources").first)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/sources/\(kept)"))) == Data(export.utf8))
        let problems = try DossierBinary.run(["problems", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect(problems.map { $0["line"] as? Int } == [2, nil])
        #expect(problems.allSatisfy { $0["kept"] as? String == "sources/\(kept)" })
        #expect((problems[0]["reason"] as? String)?.hasPrefix("'45' in column 'Weight' has no unit, and is plausible in g and kg") == true)
        #expect((problems[1]["reason"] as? String)?.hasPrefix("column 'Weight' has no unit: 1 value read as g") == true)
        // The 45 was filed as text, not as 45 g or 45 kg.
        var records = try DossierBinary.run(["records", "pets/leo", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect((records[0]["fields"] as? [String: String])?["Weight"] == "45" && (records[0]["measurements"] as? [Any])?.isEmpty == true)

        try folder.write(#"{"units": {"weight": "g"}}"#, to: "Library/config/records.json")
        let retried = try DossierBinary.run(["problems", "retry", "--library", "Library"], in: folder.url)
        #expect(retried.status == 0, "\(retried.standardOutput)\(retried.standardError)")
        records = try DossierBinary.run(["records", "pets/leo", "--library", "Library", "--json"], in: folder.url).jsonLines
        #expect(records.map { (($0["measurements"] as? [[String: Any]])?.first?["value"] as? Double) } == [45, 520])
        #expect(records.allSatisfy { $0["fields"] == nil })
        #expect(try DossierBinary.run(["problems", "--library", "Library", "--json"], in: folder.url).jsonLines.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/sources/\(kept)"))) == Data(export.utf8))
    }

    @Test("Two rows of one day with the same note are two records; a number corrected in the export replaces the old one on re-import")
    func rowsThatDifferOnlyInANumber() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "children/mina", "--name", "Mina", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        try folder.write("Date,Amount (ml),Note\n2024-03-01,120,bottle\n2024-03-01,90,bottle\n", to: "export/children/mina/feeding.csv")
        var imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.outcomes.first?["records"] as? [String: Int] == ["added": 2, "duplicate": 0, "removed": 0], "\(imported.outcomes)")
        func amounts() throws -> [Double] {
            try DossierBinary.run(["records", "children/mina", "--library", "Library", "--json"], in: folder.url).jsonLines
                .compactMap { ($0["measurements"] as? [[String: Any]])?.first?["value"] as? Double }.sorted()
        }
        #expect(try amounts() == [90, 120])

        // The 90 was a typo for 60: the edited export replaces it, and files nothing twice.
        try folder.write("Date,Amount (ml),Note\n2024-03-01,120,bottle\n2024-03-01,60,bottle\n", to: "export/children/mina/feeding.csv")
        imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.outcomes.first?["records"] as? [String: Int] == ["added": 1, "duplicate": 1, "removed": 1], "\(imported.outcomes)")
        #expect(try amounts() == [60, 120])
    }
}
