import DossierCore
import Foundation
import DossierTestSupport
import Testing
@testable import DossierRecords

@Suite("Reading CSV rows")
struct CSVReaderTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func makeReader(_ text: String, dialect: CSVDialect? = nil, maximumRowBytes: Int = CSVReader.defaultMaximumRowBytes,
                chunkSize: Int = 1 << 16) throws -> CSVReader {
        try makeReader(Array(text.utf8), dialect: dialect, maximumRowBytes: maximumRowBytes, chunkSize: chunkSize)
    }

    func makeReader(_ bytes: [UInt8], dialect: CSVDialect? = nil, maximumRowBytes: Int = CSVReader.defaultMaximumRowBytes,
                chunkSize: Int = 1 << 16) throws -> CSVReader {
        let path = try folder.write(bytes, to: "export.csv")
        return try CSVReader(lines: LineReader(path: path, chunkSize: chunkSize), dialect: dialect, maximumRowBytes: maximumRowBytes)
    }

    func rows(_ text: String, dialect: CSVDialect? = nil) throws -> [[String]] {
        var reader = try makeReader(text, dialect: dialect)
        var rows: [[String]] = []
        while let row = try reader.next() { rows.append(row.fields) }
        return rows
    }

    var path: String { folder.path("export.csv") }

    @Test("Quoted fields hold delimiters, doubled quotes and line breaks, each break as it was written")
    func rfc4180() throws {
        let text = "name,note\r\nleo,\"ate 5, then \"\"more\"\"\"\r\ncoco,\"line one\r\nline two\nline three\rend\"\r\n"
        var reader = try makeReader(text, chunkSize: 7)
        #expect(try reader.next() == CSVRow(line: 1, fields: ["name", "note"]))
        #expect(try reader.next() == CSVRow(line: 2, fields: ["leo", "ate 5, then \"more\""]))
        #expect(try reader.next() == CSVRow(line: 3, fields: ["coco", "line one\r\nline two\nline three\rend"]))
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test("The delimiter is sniffed among , ; tab | : from the lines outside quotes",
          arguments: [(",", ","), (";", ";"), ("\t", "\t"), ("|", "|"), (":", ":")] as [(String, Character)])
    func sniffsDelimiters(_ written: String, _ expected: Character) throws {
        let quoted: String = "\"a" + written + "b, c; d\""
        let lines: [[String]] = [["date", "name", "note"], ["2026-01-13", "leo", quoted], ["2026-01-14", "coco", "x"]]
        let text: String = lines.map { $0.joined(separator: written) + "\n" }.joined()
        var reader = try makeReader(text)
        #expect(reader.dialect.delimiter == expected)
        #expect(try reader.next()?.fields == ["date", "name", "note"])
        let unquoted: String = "a" + written + "b, c; d"
        #expect(try reader.next()?.fields == ["2026-01-13", "leo", unquoted])
    }

    @Test("Colons in times and commas in decimals do not fool the sniffer")
    func sniffingIsNotFooled() throws {
        var reader = try makeReader("date,time,amount\n1/13/26,15:58,3\n1/14/26,16:02,4\n")
        #expect(reader.dialect.delimiter == ",")
        reader = try makeReader("date;weight\n2026-01-13;45,5\n2026-01-14;46,25\n")
        #expect(reader.dialect.delimiter == ";")
        #expect(try reader.next()?.fields == ["date", "weight"])
        #expect(try reader.next()?.fields == ["2026-01-13", "45,5"])
    }

    @Test("A file with one column reads with the comma, its rows whole")
    func singleColumn() throws {
        #expect(try rows("name\nleo\ncoco\n") == [["name"], ["leo"], ["coco"]])
    }

    @Test("Short rows are padded to the header's width, long rows keep their extra fields")
    func raggedRows() throws {
        #expect(try rows("a,b,c\n1\n1,2\n1,2,3,4\n") == [["a", "b", "c"], ["1", "", ""], ["1", "2", ""], ["1", "2", "3", "4"]])
    }

    @Test("A title line above the header is skipped and kept")
    func titleRow() throws {
        var reader = try makeReader("Baby Tracker export,,\nDate,Name,Amount (oz.)\n1/13/26,mina,4\n")
        #expect(reader.title == "Baby Tracker export")
        #expect(try reader.next() == CSVRow(line: 2, fields: ["Date", "Name", "Amount (oz.)"]))
        #expect(try reader.next() == CSVRow(line: 3, fields: ["1/13/26", "mina", "4"]))
        // One field over one field is a one-column file, not a title.
        reader = try makeReader("name\nleo\n")
        #expect(reader.title == nil)
        #expect(try reader.next()?.fields == ["name"])
    }

    @Test("Blank lines are skipped; rows keep the number of their first line")
    func blankLines() throws {
        var reader = try makeReader("\n\na,b\n\n1,\"x\n\ny\"\n\n2,z\n")
        var read: [CSVRow] = []
        while let row = try reader.next() { read.append(row) }
        #expect(read == [CSVRow(line: 3, fields: ["a", "b"]), CSVRow(line: 5, fields: ["1", "x\n\ny"]),
                         CSVRow(line: 9, fields: ["2", "z"])])
    }

    @Test("Spaces around a quoted field are layout; spaces in a plain field are content")
    func spacesAroundQuotes() throws {
        #expect(try rows("a,b,c\n1, \"two\" , three \n") == [["a", "b", "c"], ["1", "two", " three "]])
    }

    @Test("A quote never closed is an error naming the file and the line it opened on")
    func unterminatedQuote() throws {
        var reader = try makeReader("a,b\n1,2\n3,\"four\n5,6\n")
        _ = try reader.next()
        _ = try reader.next()
        #expect(throws: CSVError.unterminatedQuote(path: path, line: 3)) { _ = try reader.next() }
        #expect(CSVError.unterminatedQuote(path: "/x/e.csv", line: 3).description
            == "/x/e.csv:3: the quoted field that starts on this line is never closed (a missing \")")
    }

    @Test("A stray quote after a closed field, or text after it, is an error naming the line and field")
    func strayQuote() throws {
        var reader = try makeReader("a,b,c\n\"1\",\"2\",\"3\" \"\n")
        _ = try reader.next()
        #expect(throws: CSVError.strayQuote(path: path, line: 2, field: 3)) { _ = try reader.next() }
        reader = try makeReader("a,b\n\"1\"x,2\n")
        _ = try reader.next()
        #expect(throws: CSVError.textAfterQuote(path: path, line: 2, field: 1, text: "x")) { _ = try reader.next() }
        #expect(CSVError.strayQuote(path: "/x/e.csv", line: 4, field: 3).description
            == "/x/e.csv:4: a stray quote after the closed quoted field 3; quotes inside a field are written \"\"")
    }

    @Test("An open quote does not swallow a large file: the row is cut off at the limit")
    func runawayQuote() throws {
        let text = "a,b\n1,\"oops\n" + String(repeating: "2,3\n", count: 2000)
        var reader = try makeReader(text, maximumRowBytes: 1000)
        _ = try reader.next()
        #expect(throws: CSVError.rowTooLong(path: path, line: 2, limit: 1000)) { _ = try reader.next() }
    }

    @Test("Backslash-escaped quotes and # comment lines are sniffed, or can be given")
    func backslashAndComments() throws {
        let text = "\"\\\"Hacksaw\\\" Jim\";1987\n# not sure\nRafael\n\"Bret \\\"Hit Man\\\" Hart\";1984\n"
        var reader = try makeReader(text)
        #expect(reader.dialect == CSVDialect(delimiter: ";", quoteEscape: .backslash, commentPrefix: "#"))
        #expect(try reader.next()?.fields == ["\"Hacksaw\" Jim", "1987"])
        #expect(try reader.next()?.fields == ["Rafael", ""])
        #expect(try reader.next()?.fields == ["Bret \"Hit Man\" Hart", "1984"])
        // Given a dialect, nothing is sniffed: `#` is data.
        let given = try rows("#,name\n1,leo\n", dialect: CSVDialect(delimiter: ","))
        #expect(given == [["#", "name"], ["1", "leo"]])
    }

    @Test("A row starting with # that fits the table is data, not a comment")
    func hashRowsThatFit() throws {
        #expect(try rows("id,name\n#1,leo\n#2,coco\n") == [["id", "name"], ["#1", "leo"], ["#2", "coco"]])
    }

    @Test("CP949 and UTF-16 files read through the line reader like UTF-8 ones")
    func encodings() throws {
        // 날짜,이름 / 2026.01.13,레오 in CP949.
        let cp949: [UInt8] = [179, 175, 194, 165, 44, 192, 204, 184, 167, 0x0D, 0x0A] + Array("2026.01.13,".utf8) + [183, 185, 191, 192, 0x0D, 0x0A]
        var reader = try makeReader(cp949)
        #expect(try reader.next()?.fields == ["날짜", "이름"])
        #expect(try reader.next()?.fields == ["2026.01.13", "레오"])
        let units: [UInt16] = Array("날짜\t이름\r\n2026.01.13\t레오\r\n".utf16)
        let utf16: [UInt8] = [0xFF, 0xFE] + units.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        reader = try makeReader(utf16)
        #expect(reader.dialect.delimiter == "\t")
        #expect(try reader.next()?.fields == ["날짜", "이름"])
        #expect(try reader.next()?.fields == ["2026.01.13", "레오"])
    }

    @Test("A file too big to hold is read row by row")
    func streaming() throws {
        // About 6 MB: many times the line reader's 64 KiB chunk and the sniffer's sample.
        var text = "date,name,weight (g),note\n"
        let row = "2026-01-13 15:58,leo,45.5,\"fed 5 crickets, \"\"all\"\" eaten\nshed ok\"\n"
        text += String(repeating: row, count: 100_000)
        var reader = try makeReader(text)
        _ = try reader.next()
        var count = 0
        var last: CSVRow?
        while let row = try reader.next() {
            count += 1
            last = row
        }
        #expect(count == 100_000)
        #expect(last == CSVRow(line: 200_000, fields: ["2026-01-13 15:58", "leo", "45.5", "fed 5 crickets, \"all\" eaten\nshed ok"]))
    }

    @Test("Spreadsheets saved under a CSV name are refused by name, before being read as text")
    func spreadsheets() throws {
        let xls = try folder.write([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0, 0, 0], to: "book.csv")
        #expect(throws: CSVError.notCSV(path: xls, format: "an Excel 97-2003 workbook (.xls) or another old Office document")) {
            _ = try CSVReader(path: xls)
        }
        #expect(CSVError.notCSV(path: "/x/a.csv", format: "a PDF document").description
            == "/x/a.csv: this is a PDF document, not CSV text; export it as CSV first")
    }

    @Test("An empty file has no rows")
    func emptyFile() throws {
        var reader = try makeReader("")
        #expect(try reader.next() == nil)
        #expect(reader.width == 0)
    }

    @Test("A row keeps its fields' bytes as written, empty and multi-byte ones included, and pads with empty fields")
    func rowsKeepTheirFields() {
        let row = CSVRow(line: 7, fields: ["", "레오", "a,b", "", "🦎 \"x\""])
        #expect(row.count == 5)
        #expect(row.fields == ["", "레오", "a,b", "", "🦎 \"x\""])
        #expect(row.field(1) == "레오")
        #expect(row.padded(to: 7).fields == ["", "레오", "a,b", "", "🦎 \"x\"", "", ""])
        #expect(row.padded(to: 3) == row)
        // Where one field ends and the next begins is part of the row.
        #expect(CSVRow(line: 1, fields: ["ab", "c"]) != CSVRow(line: 1, fields: ["a", "bc"]))
        #expect(CSVRow(line: 1, fields: []).fields == [])
    }

    @Test("A row without a note reads as its fields joined, without the empty ones a short row was padded with")
    func rowText() {
        #expect(CSVImporter.text(of: CSVRow(line: 2, fields: ["2026-01-13", "", "레오", "45 g", "", ""])) == "2026-01-13, , 레오, 45 g")
        #expect(CSVImporter.text(of: CSVRow(line: 2, fields: ["one"])) == "one")
        #expect(CSVImporter.text(of: CSVRow(line: 2, fields: ["", ""])) == "")
    }
}
