import DossierCore
import Foundation
import DossierTestSupport
import Testing
@testable import DossierRecords

/// The public CSV corpora in ../shared/corpora/csv: files no one on this project wrote.
@Suite("CSV corpora: csv-spectrum and csv-misc", SharedCorpora.required)
struct CSVCorpusTests {
    static let root = SharedCorpora.url("csv").path
    static let spectrum = root + "/csv-spectrum"
    static let rustCSV = root + "/csv-misc/rust-csv/examples/data"
    static let csvlint = root + "/csv-misc/csvlint.rb/features/fixtures"

    static let spectrumNames: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: spectrum + "/csvs")) ?? [])
        .filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }.sorted()

    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func rows(at path: String) throws -> (CSVReader, [CSVRow]) {
        var reader = try CSVReader(path: path)
        var rows: [CSVRow] = []
        while let row = try reader.next() { rows.append(row) }
        return (reader, rows)
    }

    /// Rows as csv-spectrum's JSON has them: one object per data row, keyed by the header.
    func objects(_ rows: [CSVRow]) -> [[String: String]] {
        guard let header = rows.first?.fields else { return [] }
        return rows.dropFirst().map { row in
            Dictionary(uniqueKeysWithValues: zip(header, row.fields).map { ($0, $1) })
        }
    }

    func expectedObjects(_ name: String) throws -> [[String: String]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(CSVCorpusTests.spectrum)/json/\(name).json"))
        return try JSONDecoder().decode([[String: String]].self, from: data)
    }

    @Test("The corpora are present")
    func corporaPresent() {
        #expect(CSVCorpusTests.spectrumNames.count == 11, SharedCorpora.absentMessage)
        #expect(FileManager.default.fileExists(atPath: CSVCorpusTests.rustCSV + "/strange.csv"))
        #expect(FileManager.default.fileExists(atPath: CSVCorpusTests.csvlint + "/title-row.csv"))
    }

    @Test("Every csv-spectrum file parses to exactly its JSON", arguments: spectrumNames)
    func spectrum(_ name: String) throws {
        let path = "\(CSVCorpusTests.spectrum)/csvs/\(name).csv"
        if name.hasSuffix("_crlf") {
            // Stored with real CRLF bytes, as upstream's `eol=crlf` intends.
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(zip(bytes, bytes.dropFirst()).contains { $0 == (0x0D, 0x0A) }, "\(name).csv holds no CRLF")
        }
        let (_, rows) = try rows(at: path)
        #expect(try objects(rows) == expectedObjects(name))
    }

    @Test("CRLF row ends read like LF ones: the *_crlf files without quoted line breaks give their LF twins' rows")
    func spectrumCRLFReadsLikeLF() throws {
        for name in ["empty", "simple"] {
            let (_, crlf) = try rows(at: "\(CSVCorpusTests.spectrum)/csvs/\(name)_crlf.csv")
            let (_, twin) = try rows(at: "\(CSVCorpusTests.spectrum)/csvs/\(name).csv")
            #expect(crlf == twin, "\(name)")
        }
    }

    // MARK: rust-csv

    static let smallpop: [[String]] = [
        ["city", "region", "country", "population"],
        ["Southborough", "MA", "United States", "9686"], ["Northbridge", "MA", "United States", "14061"],
        ["Westborough", "MA", "United States", "29313"], ["Marlborough", "MA", "United States", "38334"],
        ["Springfield", "MA", "United States", "152227"], ["Springfield", "MO", "United States", "150443"],
        ["Springfield", "NJ", "United States", "14976"], ["Springfield", "OH", "United States", "64325"],
        ["Springfield", "OR", "United States", "56032"], ["Concord", "NH", "United States", "42605"],
    ]

    @Test("smallpop.csv reads as its ten cities under a header")
    func smallpop() throws {
        let (reader, rows) = try rows(at: CSVCorpusTests.rustCSV + "/smallpop.csv")
        #expect(reader.dialect.delimiter == ",")
        #expect(rows.map(\.fields) == CSVCorpusTests.smallpop)
        #expect(rows.map(\.line) == Array(1...11))
    }

    @Test("smallpop-colon.csv: the ':' delimiter is sniffed and the rows are smallpop's")
    func smallpopColon() throws {
        let (reader, rows) = try rows(at: CSVCorpusTests.rustCSV + "/smallpop-colon.csv")
        #expect(reader.dialect.delimiter == ":")
        #expect(rows.map(\.fields) == CSVCorpusTests.smallpop)
    }

    @Test("smallpop-no-headers.csv: with no header, the first row is a city, and nothing maps to a role")
    func smallpopNoHeaders() throws {
        let (_, rows) = try rows(at: CSVCorpusTests.rustCSV + "/smallpop-no-headers.csv")
        #expect(rows.map(\.fields) == Array(CSVCorpusTests.smallpop.dropFirst()))
        let columns = CSVColumns(header: rows[0].fields)
        #expect(columns.columns.allSatisfy { $0.role == .text })
        #expect(columns.column(.date) == nil)
    }

    @Test("strange.csv: ';', backslash-escaped quotes and a # comment are sniffed; the 1-field row is padded")
    func strange() throws {
        let (reader, rows) = try rows(at: CSVCorpusTests.rustCSV + "/strange.csv")
        #expect(reader.dialect == CSVDialect(delimiter: ";", quoteEscape: .backslash, commentPrefix: "#"))
        #expect(rows == [
            CSVRow(line: 1, fields: ["\"Hacksaw\" Jim Duggan", "1987"]),
            CSVRow(line: 2, fields: ["Bret \"Hit Man\" Hart", "1984"]),
            CSVRow(line: 4, fields: ["Rafael Halperin", ""]),
            CSVRow(line: 5, fields: ["\"Big Cat\" Ernie Ladd", "1964"]),
            CSVRow(line: 6, fields: ["\"Macho Man\" Randy Savage", "1985"]),
            CSVRow(line: 7, fields: ["Jake \"The Snake\" Roberts", "1986"]),
        ])
    }

    @Test("uspop.csv reads 100 places; uspop-null.csv is the same with the literal NULL kept as text")
    func uspop() throws {
        let (_, plain) = try rows(at: CSVCorpusTests.rustCSV + "/uspop.csv")
        let (_, null) = try rows(at: CSVCorpusTests.rustCSV + "/uspop-null.csv")
        #expect(plain.count == 101 && null.count == 101)
        #expect(plain[0].fields == ["City", "State", "Population", "Latitude", "Longitude"])
        #expect(plain[1].fields == ["Davidsons Landing", "AK", "", "65.2419444", "-165.2716667"])
        let differing = zip(plain, null).filter { $0.fields != $1.fields }
        #expect(differing.count == 3)
        for (before, after) in differing {
            #expect(before.fields[2] == "" && after.fields[2] == "NULL")
            var unchanged = before.fields, unchangedAfter = after.fields
            unchanged.remove(at: 2)
            unchangedAfter.remove(at: 2)
            #expect(unchanged == unchangedAfter)
        }
    }

    @Test("uspop-latin1.csv (ISO-8859-1 bytes) is refused by the line reader at the first line that does not decode")
    func uspopLatin1() throws {
        // Latin-1 "Õa" (D5 61) has the shape of a CP949 pair, so the reader takes the file for
        // CP949, then refuses the line whose bytes CP949 does not have.
        let path = CSVCorpusTests.rustCSV + "/uspop-latin1.csv"
        var reader = try CSVReader(path: path)
        #expect(try reader.next()?.fields == ["City", "State", "Population", "Latitude", "Longitude"])
        #expect(try reader.next()?.fields == ["Davidsons Landing", "AK", "", "65.2419444", "-165.2716667"])
        #expect(try reader.next()?.fields == ["Kenai", "AK", "7610", "60.5544444", "-151.2583333"])
        #expect(throws: CSVError.text(.invalidLine(path: path, line: 4, encoding: .cp949))) { _ = try reader.next() }
        #expect(CSVError.text(.invalidLine(path: path, line: 4, encoding: .cp949)).description
            == "\(path):4: this line is not valid CP949, the encoding of the lines before it")
    }

    // MARK: csvlint

    static let fooRows: [[String]] = [["Foo", "Bsr", "Baz"], ["Biff", "Baff", "Boff"], ["Qux", "Teaspoon", "Doge"]]

    @Test("CR, LF, CRLF and mixed line endings all read as the same three rows",
          arguments: ["cr-line-endings", "lf-line-endings", "crlf-line-endings", "inconsistent-line-endings",
                      "inconsistent-line-endings-unquoted"])
    func lineEndings(_ name: String) throws {
        let (_, rows) = try rows(at: "\(CSVCorpusTests.csvlint)/\(name).csv")
        var expected = CSVCorpusTests.fooRows
        if name == "cr-line-endings" { expected[0][1] = "Bar" }
        #expect(rows.map(\.fields) == expected)
        #expect(rows.map(\.line) == [1, 2, 3])
    }

    @Test("valid.csv, valid_many_rows.csv, windows-line-endings.csv and a name with spaces read as written")
    func validFiles() throws {
        #expect(try rows(at: CSVCorpusTests.csvlint + "/valid.csv").1.map(\.fields) == [["Foo", "Bar", "Baz"], ["1", "2", "3"], ["3", "2", "1"]])
        #expect(try rows(at: CSVCorpusTests.csvlint + "/white space in filename.csv").1.map(\.fields)
            == [["Foo", "Bar", "Baz"], ["1", "2", "3"], ["3", "2", "1"]])
        #expect(try rows(at: CSVCorpusTests.csvlint + "/windows-line-endings.csv").1.map(\.fields) == [["a", "b", "c"], ["d", "e", "f"]])
        let many = try rows(at: CSVCorpusTests.csvlint + "/valid_many_rows.csv").1
        #expect(many.map(\.fields) == [["Foo", "Bar", "Baz"]] + Array(repeating: [["1", "2", "3"], ["3", "2", "1"]], count: 3).flatMap { $0 })
    }

    @Test("title-row.csv: the title line is skipped and the header is the second line")
    func titleRow() throws {
        let (reader, rows) = try rows(at: CSVCorpusTests.csvlint + "/title-row.csv")
        #expect(reader.title == "This is a title row")
        #expect(rows.map(\.fields) == CSVCorpusTests.fooRows)
        #expect(rows.first?.line == 2)
    }

    @Test("invalid_many_rows.csv: the stray quote after a closed field on line 4 is an error")
    func invalidManyRows() throws {
        let path = CSVCorpusTests.csvlint + "/invalid_many_rows.csv"
        var reader = try CSVReader(path: path)
        #expect(try reader.next()?.fields == ["Foo", "Bar", "Baz"])
        #expect(try reader.next()?.fields == ["1", "2", "3"])
        #expect(try reader.next()?.fields == ["3", "2", "1"])
        #expect(throws: CSVError.strayQuote(path: path, line: 4, field: 3)) { _ = try reader.next() }
        // A caller may go on past a bad row: the blank line is skipped, the all-empty row is a row.
        var rest: [CSVRow] = []
        while let row = try reader.next() { rest.append(row) }
        #expect(rest.map(\.line) == [5, 6, 7, 9, 10, 11, 12])
        #expect(rest.map(\.fields) == [["3", "two", "1"], ["1", "2", "3"], ["3", "2", "1"], ["3", "2", "1"], ["3", "2", "1"],
                                       ["", "", ""], ["3", "2", "1"]])
    }

    @Test("invalid-byte-sequence.csv (ISO-8859-1 text) is refused by the line reader, not read as mojibake")
    func invalidByteSequence() throws {
        let path = CSVCorpusTests.csvlint + "/invalid-byte-sequence.csv"
        #expect(throws: CSVError.text(.invalidLine(path: path, line: 1, encoding: .cp949))) { _ = try rows(at: path) }
    }

    @Test("spreadsheet.xls and spreadsheet.xlsx are refused as spreadsheets, not CSV")
    func spreadsheets() throws {
        let xls = CSVCorpusTests.csvlint + "/spreadsheet.xls", xlsx = CSVCorpusTests.csvlint + "/spreadsheet.xlsx"
        #expect(throws: CSVError.notCSV(path: xls, format: "an Excel 97-2003 workbook (.xls) or another old Office document")) {
            _ = try CSVReader(path: xls)
        }
        #expect(throws: CSVError.notCSV(path: xlsx, format: "a ZIP archive, such as an Excel (.xlsx), Numbers or OpenDocument spreadsheet")) {
            _ = try CSVReader(path: xlsx)
        }
    }
}
