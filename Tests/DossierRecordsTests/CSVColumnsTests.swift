import DossierCore
import Foundation
import DossierTestSupport
import Testing
@testable import DossierRecords

@Suite("Mapping CSV columns to record fields")
struct CSVColumnsTests {
    func values(_ header: [String], _ fields: [String], decimalComma: Bool = false) -> CSVRowValues {
        CSVColumns(header: header, decimalComma: decimalComma).values(of: CSVRow(line: 2, fields: fields))
    }

    func date(_ text: String) -> RecordDate? {
        values(["Date"], [text]).date
    }

    @Test("Headers in English and Korean take their roles, whatever their case, spaces and punctuation")
    func roles() {
        let header = ["Time Stamp", "시간", "Pet", "Event", "Comments", "Colour", "번호"]
        let columns = CSVColumns(header: header)
        #expect(columns.columns.map(\.role) == [.date, .time, .subject, .kind, .note, .text, .text])
        for date in ["date", "DAY", "날짜", "일자", "일시", "timestamp", "time_stamp", "DateTime", "Start", "Start Time"] {
            #expect(CSVColumns.role(of: date) == .date, "\(date)")
        }
        for time in ["time", "시간", "시각"] { #expect(CSVColumns.role(of: time) == .time, "\(time)") }
        for subject in ["Name", "subject", "pet", "Animal", "child", "Baby", "이름", "개체", "아이"] {
            #expect(CSVColumns.role(of: subject) == .subject, "\(subject)")
        }
        for kind in ["kind", "Type", "category", "event", "Activity", "종류", "구분", "분류", "RecordCategory", "Record Type", "種類", "カテゴリ"] {
            #expect(CSVColumns.role(of: kind) == .kind, "\(kind)")
        }
        for note in ["note", "Notes", "memo", "comment", "메모", "비고", "내용"] { #expect(CSVColumns.role(of: note) == .note, "\(note)") }
    }

    @Test("A unit in the header makes a measurement in the unit records keep",
          arguments: [
              ("Amount (oz.)", "Amount", MeasurementUnit.millilitres, 29.5735),
              ("무게(g)", "무게", .grams, 1), ("Weight (kg)", "Weight", .grams, 1000), ("Weight (lb)", "Weight", .grams, 453.59237),
              ("Weight (oz)", "Weight", .grams, 28.349523125), ("Height (in)", "Height", .centimetres, 2.54),
              ("키(cm)", "키", .centimetres, 1), ("Duration(minutes)", "Duration", .minutes, 1),
              ("Duration (min)", "Duration", .minutes, 1), ("Duration (hours)", "Duration", .minutes, 60),
              ("시간(분)", "시간", .minutes, 1), ("Milk (ml)", "Milk", .millilitres, 1), ("Water (L)", "Water", .millilitres, 1000),
              ("Crickets (count)", "Crickets", .count, 1), ("귀뚜라미(마리)", "귀뚜라미", .count, 1), ("밀웜 (개)", "밀웜", .count, 1),
              ("Weight [kg]", "Weight", .grams, 1000), ("weight_kg", "weight", .grams, 1000), ("Length（mm）", "Length", .centimetres, 0.1),
              // A flight log's elapsed time: a duration, never the time of day (whose every cell would be a problem).
              ("time(millisecond)", "time", .minutes, 1.0 / 60_000),
          ] as [(String, String, MeasurementUnit, Double)])
    func unitsInHeaders(_ header: String, _ name: String, _ unit: MeasurementUnit, _ factor: Double) {
        #expect(CSVColumns.role(of: header) == .measurement(name: name, unit: unit, factor: factor))
    }

    @Test("Known measurement names without a unit leave their unit to be settled row by row, never assumed",
          arguments: [("Weight", MeasurementUnit.grams), ("무게", .grams), ("체중", .grams), ("height", .centimetres), ("키", .centimetres),
                      ("Length", .centimetres), ("길이", .centimetres), ("Amount", .millilitres), ("volume", .millilitres),
                      ("양", .millilitres), ("Duration", .minutes)]
              as [(String, MeasurementUnit)])
    func unitlessMeasurementNames(_ header: String, _ dimension: MeasurementUnit) {
        #expect(CSVColumns.role(of: header) == .unitlessMeasurement(name: header, dimension: dimension))
    }

    @Test("A count needs no unit, and a name that is its unit (Minutes) says it; Quantity measures what its row's kind does")
    func namesThatSayTheirUnit() {
        #expect(CSVColumns.role(of: "Count") == .measurement(name: "Count", unit: .count, factor: 1))
        #expect(CSVColumns.role(of: "수량") == .measurement(name: "수량", unit: .count, factor: 1))
        #expect(CSVColumns.role(of: "Minutes") == .measurement(name: "Minutes", unit: .minutes, factor: 1))
        #expect(CSVColumns.role(of: "Quantity") == .unitlessMeasurement(name: "Quantity", dimension: nil))
        #expect(CSVColumns.role(of: "단위") == .unit)
    }

    @Test("A parenthesis that is not a unit leaves the header's role to its name")
    func nonUnitParentheses() {
        #expect(CSVColumns.role(of: "Date (local)") == .date)
        #expect(CSVColumns.role(of: "Notes (optional)") == .note)
        #expect(CSVColumns.role(of: "Temperature (°C)") == .text)
        #expect(CSVColumns.role(of: "Pet No") == .text)
        // A unit not known is not guessed: the column stays text.
        #expect(CSVColumns.role(of: "Weight (stone)") == .text)
    }

    @Test("The first column of a role takes it; a second date or note column is kept as text")
    func duplicateRoles() {
        let read = values(["Date", "Note", "Date", "Note"], ["2026-01-13", "first", "2026-01-14", "second"])
        #expect(read.date == RecordDate(year: 2026, month: 1, day: 13))
        #expect(read.note == "first")
        #expect(read.fields == ["Date": "2026-01-14", "Note": "second"])
    }

    @Test("A row reads into its date, subject, kind, measurements, note and other fields")
    func rowValues() {
        let header = ["Date", "Time", "Baby", "Activity", "Amount (oz.)", "Duration (min)", "Side", "Notes", "Weight (kg)"]
        let read = values(header, ["1/13/26", "3:58 PM", "Mina", "Feed", "0.6", "", "left", "sleepy", ""])
        #expect(read == CSVRowValues(
            line: 2, date: RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58), subjectName: "Mina", kind: "Feed",
            measurements: [RecordMeasurement(name: "Amount", value: 17.7441, unit: .millilitres)], note: "sleepy",
            fields: ["Side": "left"], problems: []))
    }

    @Test("Weights in kg, lb and oz are grams; heights in inches are centimetres")
    func conversions() {
        let header = ["Date", "Weight (kg)", "Weight (lb)", "Weight (oz)", "Height (in)", "Duration (hours)"]
        let read = values(header, ["2026-01-13", "0.05", "1", "2", "20", "1.5"])
        #expect(read.measurements == [
            RecordMeasurement(name: "Weight", value: 50, unit: .grams),
            RecordMeasurement(name: "Weight", value: 453.5924, unit: .grams),
            RecordMeasurement(name: "Weight", value: 56.699, unit: .grams),
            RecordMeasurement(name: "Height", value: 50.8, unit: .centimetres),
            RecordMeasurement(name: "Duration", value: 90, unit: .minutes),
        ])
    }

    @Test("A unit written in the cell is used when it measures what the column does")
    func unitsInCells() {
        let read = values(["Date", "Weight", "Amount"], ["2026-01-13", "45 g", "0.6 oz"])
        #expect(read.measurements == [RecordMeasurement(name: "Weight", value: 45, unit: .grams),
                                      RecordMeasurement(name: "Amount", value: 17.7441, unit: .millilitres)])
        let wrong = values(["Date", "Weight"], ["2026-01-13", "45 cm"])
        #expect(wrong.measurements.isEmpty)
        #expect(wrong.problems == ["column 'Weight': '45 cm' is not a number"])
    }

    @Test("A bad cell is reported with its column and kept out; the rest of the row still reads")
    func problems() {
        let read = values(["Date", "Name", "Weight (kg)"], ["2026-01-13", "leo", "abc"])
        #expect(read.problems == ["column 'Weight (kg)': 'abc' is not a number"])
        #expect(read.subjectName == "leo")
        #expect(read.date == RecordDate(year: 2026, month: 1, day: 13))
        let badDate = values(["Date", "Weight (g)"], ["yesterday", "45"])
        #expect(badDate.problems == ["column 'Date': 'yesterday' is not a date"])
        #expect(badDate.measurements == [RecordMeasurement(name: "Weight", value: 45, unit: .grams)])
        let impossible = values(["Date"], ["2026-02-30"])
        #expect(impossible.date == nil)
        #expect(impossible.problems == ["column 'Date': '2026-02-30' is not a real date"])
        // The years a notepad log accepts, no more: 9999-12-31 and 0000-01-01 are mistakes in both.
        for (date, time) in [("9999-12-31", "10:00"), ("0000-01-01", "08:15"), ("1899-12-31", "23:59")] {
            let outOfRange = values(["Date", "Time"], [date, time])
            #expect(outOfRange.date == nil)
            #expect(outOfRange.problems == ["column 'Date': '\(date)' is not a real date"], "\(date)")
        }
    }

    @Test("Empty and NULL-like cells in a number column are no measurement and no problem")
    func blanks() {
        for blank in ["", " ", "NULL", "-", "n/a"] {
            let read = values(["Date", "Weight"], ["2026-01-13", blank])
            #expect(read.measurements.isEmpty && read.problems.isEmpty, "\(blank)")
        }
    }

    @Test("A number no measurement can be (1e305, inf, NaN) is a problem, and its text stays on the record")
    func numbersTooLargeToKeep() {
        for cell in ["1e305", "inf", "NaN"] {
            let read = values(["Date", "Weight (kg)"], ["2024-03-01", cell])
            #expect(read.measurements.isEmpty, "\(cell)")
            #expect(read.problems == ["column 'Weight (kg)': '\(cell)' is not a number"])
            #expect(read.fields == ["Weight (kg)": cell])
        }
    }

    @Test("Thousands separators, and the decimal comma where ; delimits fields")
    func numbers() {
        #expect(values(["Weight (g)"], ["1,234"]).measurements.first?.value == 1234)
        #expect(values(["Weight (g)"], ["1,234.5"]).measurements.first?.value == 1234.5)
        #expect(values(["Weight (g)"], ["45,5"]).measurements.first?.value == 45.5)
        #expect(values(["Weight (g)"], ["-2"]).measurements.first?.value == -2)
        #expect(values(["Weight (g)"], ["45,5"], decimalComma: true).measurements.first?.value == 45.5)
        #expect(values(["Weight (g)"], ["1,234"], decimalComma: true).measurements.first?.value == 1.234)
        #expect(values(["Weight (g)"], ["1.234,5"], decimalComma: true).measurements.first?.value == 1234.5)
        #expect(values(["Weight (g)"], ["1,2,3"]).problems == ["column 'Weight (g)': '1,2,3' is not a number"])
        let semicolon = CSVColumns(header: CSVRow(line: 1, fields: ["Weight"]), dialect: CSVDialect(delimiter: ";"))
        #expect(semicolon.decimalComma)
    }

    @Test("Timestamps in the forms exports write them",
          arguments: [
              ("1/13/26, 15:58", RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58)),
              ("1/13/2026 3:58 PM", RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58)),
              ("1/13/2026 12:05 AM", RecordDate(year: 2026, month: 1, day: 13, hour: 0, minute: 5)),
              ("2026-01-13 15:58", RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58)),
              ("2026-01-13T15:58:00+09:00", RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58, utcOffsetMinutes: 540)),
              ("2026-01-13T15:58:00.250-05:30", RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58, utcOffsetMinutes: -330)),
              ("2026-01-13T06:58:00Z", RecordDate(year: 2026, month: 1, day: 13, hour: 6, minute: 58, utcOffsetMinutes: 0)),
              ("2026.01.13", RecordDate(year: 2026, month: 1, day: 13)),
              ("2026. 1. 13. 오후 3:58:10", RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58)),
              ("2026년 1월 13일 오후 3:58", RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58)),
              ("2026년 1월 13일 (화) 오전 9시 5분", RecordDate(year: 2026, month: 1, day: 13, hour: 9, minute: 5)),
              ("23.05.10", RecordDate(year: 2023, month: 5, day: 10)),
              ("13/1/2026", RecordDate(year: 2026, month: 1, day: 13)),
              ("Jan 13, 2026 3:58 p.m.", RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58)),
              ("Tue 13 January 2026", RecordDate(year: 2026, month: 1, day: 13)),
              ("20260113", RecordDate(year: 2026, month: 1, day: 13)),
          ] as [(String, RecordDate?)])
    func timestamps(_ text: String, _ expected: RecordDate?) {
        #expect(date(text) == expected)
    }

    @Test("Text that is no date is none", arguments: ["yesterday", "45", "15:58", "1/13", "2026-13-01", "13/13/2026", "2026-01-13 25:00"])
    func notDates(_ text: String) {
        #expect(date(text) == nil)
    }

    @Test("A separate time column completes the date; a time column of whole timestamps is the date")
    func dateAndTimeColumns() {
        #expect(values(["날짜", "시간"], ["2026.01.13", "오후 3:58"]).date == RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58))
        #expect(values(["Date", "Time"], ["2026-01-13", "15:58"]).date == RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58))
        #expect(values(["Time", "Name"], ["2026-01-13 15:58", "leo"]).date == RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58))
        let badTime = values(["Date", "Time"], ["2026-01-13", "teatime"])
        #expect(badTime.date == RecordDate(year: 2026, month: 1, day: 13))
        #expect(badTime.problems == ["column 'Time': 'teatime' is not a time"])
        let impossibleTime = values(["Date", "Time"], ["2026-01-13", "25:10"])
        #expect(impossibleTime.date == nil)
        #expect(impossibleTime.problems == ["column 'Time': '25:10' is not a real time"])
    }

    @Test("Cells beyond the header are kept as numbered fields; text columns keep their cells as written")
    func extraFields() {
        let read = values(["Date", "Colour"], ["2026-01-13", " red ", "extra", ""])
        #expect(read.fields == ["Colour": " red ", "column 3": "extra"])
    }

    @Test("A baby tracker export reads end to end: BOM, title line, CRLF, quoted timestamps, ragged rows")
    func babyTrackerExport() throws {
        let folder = try TemporaryFolder()
        let text = "\u{FEFF}Mina's feeds,,,,\r\nTime,Baby,Activity,Amount (oz.),Notes\r\n\"1/13/26, 15:58\",Mina,Bottle,4,\"fussy, then \"\"fine\"\"\"\r\n"
            + "\"1/13/26, 19:02\",Mina,Diaper\r\n\"1/14/26, 07:30\",Mina,Bottle,4.5\r\n"
        var reader = try CSVReader(path: folder.write(text, to: "feeds.csv"))
        let header = try #require(try reader.next())
        let columns = CSVColumns(header: header, dialect: reader.dialect)
        var read: [CSVRowValues] = []
        while let row = try reader.next() { read.append(columns.values(of: row)) }
        #expect(reader.title == "Mina's feeds")
        #expect(read.map(\.line) == [3, 4, 5])
        #expect(read.map(\.date) == [RecordDate(year: 2026, month: 1, day: 13, hour: 15, minute: 58),
                                     RecordDate(year: 2026, month: 1, day: 13, hour: 19, minute: 2),
                                     RecordDate(year: 2026, month: 1, day: 14, hour: 7, minute: 30)])
        #expect(read.map(\.kind) == ["Bottle", "Diaper", "Bottle"])
        #expect(read.map { $0.measurements.map(\.value) } == [[118.294], [], [133.0808]])
        #expect(read[0].note == "fussy, then \"fine\"")
        #expect(read.allSatisfy { $0.problems.isEmpty && $0.subjectName == "Mina" })
    }

    @Test("Plain numbers read from a cell's bytes are exactly the doubles the text reads as, to the last bit")
    func plainNumbersFromBytes() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "+3", "45.", ".5", "007", "0.1", "0.3", "123456789012345", "1234567890123456789",
                     "9007199254740993", "0.000000000000001", "4.35", "-12.75", "99999999999999.9"]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            let point = Int.random(in: 0...digits, using: &generator)
            if Bool.random(using: &generator) { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            texts.append(Bool.random(using: &generator) ? "-" + text : text)
        }
        var mismatches: [String] = []
        for text in texts {
            var cell = text
            let read = cell.withUTF8 { CSVNumber.parse($0, decimalComma: false) }
            if read?.bitPattern != Double(text)?.bitPattern { mismatches.append(text) }
        }
        #expect(mismatches == [])
        var grouped = "1,234.5"
        #expect(grouped.withUTF8 { CSVNumber.parse($0, decimalComma: false) } == 1234.5)
    }

    struct UnitForm: Sendable, CustomTestStringConvertible {
        let header: String
        let cell: String
        let expected: RecordMeasurement
        var decimalComma = false
        var testDescription: String { "\(header): \(cell)" }
    }

    static let unitForms: [UnitForm] = [
        UnitForm(header: "Quantity (oz.)", cell: "8.2 oz", expected: RecordMeasurement(name: "Quantity", value: 242.5027, unit: .millilitres)),
        UnitForm(header: "Weight", cell: "8.2 oz", expected: RecordMeasurement(name: "Weight", value: 232.4661, unit: .grams)),
        UnitForm(header: "Weight", cell: "4lb 2.70oz", expected: RecordMeasurement(name: "Weight", value: 1890.9132, unit: .grams)),
        UnitForm(header: "Weight", cell: "5 lb 3 oz", expected: RecordMeasurement(name: "Weight", value: 2353.0104, unit: .grams)),
        UnitForm(header: "Length", cell: "18.15in", expected: RecordMeasurement(name: "Length", value: 46.101, unit: .centimetres)),
        UnitForm(header: "Sleep", cell: "1 h 48 min", expected: RecordMeasurement(name: "Sleep", value: 108, unit: .minutes)),
        UnitForm(header: "Duration", cell: "1:48", expected: RecordMeasurement(name: "Duration", value: 108, unit: .minutes)),
        UnitForm(header: "수면", cell: "1시간 20분", expected: RecordMeasurement(name: "수면", value: 80, unit: .minutes)),
        UnitForm(header: "Duration", cell: "1時間15分", expected: RecordMeasurement(name: "Duration", value: 75, unit: .minutes)),
        UnitForm(header: "Gewicht", cell: "6,5 kg", expected: RecordMeasurement(name: "Gewicht", value: 6500, unit: .grams), decimalComma: true),
        UnitForm(header: "Weight", cell: "6,5 kg", expected: RecordMeasurement(name: "Weight", value: 6500, unit: .grams)),
        UnitForm(header: "Mass in g", cell: "412", expected: RecordMeasurement(name: "Mass", value: 412, unit: .grams)),
        UnitForm(header: "Length in m", cell: "0.62", expected: RecordMeasurement(name: "Length", value: 62, unit: .centimetres)),
    ]

    @Test("Each way people write a quantity's unit gives the exact value in the unit records keep", arguments: unitForms)
    func eachUnitForm(_ form: UnitForm) {
        let read = values(["Date", form.header], ["2024-03-05", form.cell], decimalComma: form.decimalComma)
        #expect(read.problems == [])
        #expect(read.measurements == [form.expected])
    }

    @Test("A cell whose units do not all measure what the column does, or that ends in a bare number, is a problem, not a value")
    func mixedUnitsAreProblems() {
        for cell in ["5 lb 3", "4 lb 20 ml", "1 h 48 cm", "1:75"] {
            let read = values(["Date", "Weight"], ["2024-03-05", cell])
            #expect(read.measurements == [], "\(cell)")
            #expect(read.problems == ["column 'Weight': '\(cell)' is not a number"], "\(cell)")
        }
    }
}
