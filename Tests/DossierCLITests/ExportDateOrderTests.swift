import Foundation
import DossierTestSupport
import Testing

/// Dates in exports written with the year last: each column's order decided from all of its
/// values, never a mix, and said.
@Suite("A CSV column's dates are read in one order, decided from every value in it")
struct ExportDateOrderTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "children/mina", "--name", "Mina", "--born", "2023-11-02",
                                           "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        // Baby Buddy writes its amounts with no unit: the library says which.
        try folder.write(#"{"units": {"feeding": "ml"}}"#, to: "Library/config/records.json")
    }

    /// A feeding export in the shape Baby Buddy writes (`dd/mm/yyyy HH:MM`, a child column, the
    /// end and the method beside the start): `days` rows, one a day from `first`, two hours apart.
    static func feedings(days: [(day: Int, month: Int)], year: Int = 2024) -> String {
        let methods = ["bottle", "left breast", "right breast", "both breasts"]
        let notes = ["", "", "sleepy", "", "fussed, then fine", "", "\"big\" burp", ""]
        var lines = ["Child,Start,End,Type,Method,Amount,Notes"]
        for (index, date) in days.enumerated() {
            let stamp = String(format: "%02d/%02d/%d", date.day, date.month, year)
            let hour = 6 + index % 12
            let note = notes[index % notes.count]
            lines.append("Mina,\(stamp) \(String(format: "%02d", hour)):15,\(stamp) \(String(format: "%02d", hour)):40,"
                         + "breast milk,\(methods[index % methods.count]),\(60 + index * 7 % 90),"
                         + (note.contains(",") || note.contains("\"") ? "\"\(note.replacingOccurrences(of: "\"", with: "\"\""))\"" : note))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    func dates(_ subject: String = "children/mina") throws -> [String] {
        let result = try DossierBinary.run(["records", subject, "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        return result.jsonLines.compactMap { $0["date"] as? String }.sorted()
    }

    @Test("A Baby Buddy export writing dd/mm/yyyy is read day-first from its first row, because a later row says 24/01")
    func dayFirstDatesAreReadDayFirstThroughout() throws {
        // 40 rows whose day is 12 or less (each reads either way), then the 24th of January.
        let days = (1...12).flatMap { day in [(day: day, month: 1), (day: day, month: 2), (day: day, month: 3)] }
            + [(day: 1, month: 4), (day: 2, month: 4), (day: 3, month: 4), (day: 4, month: 4), (day: 24, month: 1)]
        try folder.write(ExportDateOrderTests.feedings(days: days), to: "export/feedings.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        let outcome = try #require(imported.outcomes.first)
        #expect(outcome["reading"] as? String
                == "41 rows -> 41 records, 0 problems; dates D/M/Y in 'Start' (from 24/01/2024 10:15); ends D/M/Y in 'End' (from 24/01/2024 10:40); subjects in 'Child'; kind from 'Type'; sub-kind from 'Method'; 'Amount' has no unit: ml as config/records.json says for 'feeding'")
        let filed = try dates()
        #expect(filed.count == 41)
        // 09/01/2024 is the 9th of January, not the 1st of September: nothing after April.
        #expect(filed.first == "2024-01-01T06:15")
        #expect(filed.last == "2024-04-04T09:15")
        #expect(filed.contains("2024-01-09T06:15") && !filed.contains { $0.hasPrefix("2024-09") })
        #expect(filed.contains("2024-01-24T10:15"))
    }

    @Test("A column whose every date reads either way follows the library's monthFirst, for CSV as for logs, and says so")
    func ambiguousDatesFollowTheLibrarySetting() throws {
        try folder.write(#"{"monthFirst": false, "units": {"feeding": "ml"}}"#, to: "Library/config/records.json")
        let days = [(day: 3, month: 4), (day: 5, month: 4), (day: 7, month: 5)]
        try folder.write(ExportDateOrderTests.feedings(days: days), to: "export/feedings.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains(
            "  read: 3 rows -> 3 records, 0 problems; dates D/M/Y in 'Start' "
            + "(every date reads either way: the library's monthFirst is false); ends D/M/Y in 'End' (every date reads either way: "
            + "the library's monthFirst is false); subjects in 'Child'; kind from 'Type'; sub-kind from 'Method'; 'Amount' has no unit: ml as config/records.json says for 'feeding'\n"))
        #expect(try dates() == ["2024-04-03T06:15", "2024-04-05T07:15", "2024-05-07T08:15"])
    }

    @Test("Without a setting, dates that read either way are month-first, and the line says the setting decided")
    func ambiguousDatesDefaultToMonthFirst() throws {
        try folder.write(ExportDateOrderTests.feedings(days: [(day: 3, month: 4), (day: 5, month: 4)]), to: "export/feedings.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.outcomes.first?["reading"] as? String
                == "2 rows -> 2 records, 0 problems; dates M/D/Y in 'Start' (every date reads either way: the library's monthFirst is true); "
                + "ends M/D/Y in 'End' (every date reads either way: the library's monthFirst is true); "
                + "subjects in 'Child'; kind from 'Type'; sub-kind from 'Method'; 'Amount' has no unit: ml as config/records.json says for 'feeding'")
        #expect(try dates() == ["2024-03-04T06:15", "2024-05-04T07:15"])
    }

    @Test("A column that mixes orders is read in the order most of its dates show; the others are problems, never read the other way")
    func aMixedColumnIsNeverReadBothWays() throws {
        // Three rows only day-first reads, one only month-first reads (01/24), two either way.
        try folder.write(ExportDateOrderTests.feedings(days: [(day: 13, month: 2), (day: 2, month: 3), (day: 14, month: 2),
                                                              (day: 1, month: 24), (day: 15, month: 2), (day: 5, month: 3)]),
                         to: "export/feedings.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        let outcome = try #require(imported.outcomes.first)
        #expect(outcome["status"] as? String == "imported")
        #expect(outcome["problems"] as? [String] == [
            folder.url.appendingPathComponent("export/feedings.csv").path + ": line 5: column 'Start': '01/24/2024 09:15' is not a date "
                + "in this column's order, D/M/Y (from 13/02/2024 06:15; 1 date reads only the other way: problems)",
            folder.url.appendingPathComponent("export/feedings.csv").path + ": line 5: column 'End': '01/24/2024 09:40' is not a date "
                + "in this column's order, D/M/Y (from 13/02/2024 06:40; 1 date reads only the other way: problems)",
            folder.url.appendingPathComponent("export/feedings.csv").path + ": line 5: no date in this row",
        ])
        #expect(try dates() == ["2024-02-13T06:15", "2024-02-14T08:15", "2024-02-15T10:15", "2024-03-02T07:15", "2024-03-05T11:15"])
    }

    @Test("ISO dates need no order: the file is read once, and the line names the date column")
    func isoDatesNeedNoOrder() throws {
        try folder.write("Date,Name,Weight (kg),Note\r\n2024-03-05,Mina,5.2,\r\n2024-04-05,Mina,5.9,\"after bath, calm\"\r\n",
                         to: "export/growth.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.outcomes.first?["reading"] as? String
                == "2 rows -> 2 records, 0 problems; dates in 'Date'; subjects in 'Name'; kind from each row's note; 'Weight (kg)' -> g (x1000)")
    }

    @Test("A year-last date that turns up only after the first rows of ISO dates follows the library's setting; one it cannot be is a problem")
    func aLateYearLastDateFollowsTheSetting() throws {
        var lines = ["Date,Name,Weight (g)"]
        for day in 1...40 { lines.append(String(format: "2024-03-%02d,Mina,%d", day % 28 + 1, 5200 + day * 9)) }
        lines += ["04/05/2024,Mina,5650", "24/05/2024,Mina,5700"]
        try folder.write(lines.joined(separator: "\n") + "\n", to: "export/weights.csv")
        let imported = try DossierBinary.run(["import", "--create", "export", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 3)
        let outcome = try #require(imported.outcomes.first)
        #expect(outcome["problems"] as? [String] == [
            folder.url.appendingPathComponent("export/weights.csv").path + ": line 43: column 'Date': '24/05/2024' is not a real date",
            folder.url.appendingPathComponent("export/weights.csv").path + ": line 43: no date in this row",
        ])
        #expect(try dates().suffix(1) == ["2024-04-05"])
    }
}
