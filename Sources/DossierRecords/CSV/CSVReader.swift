import DossierCore
import Foundation

/// Reads a CSV file row by row from a `LineReader`, which has already dealt with the encoding,
/// the BOM and CR / LF / CRLF; only one row is held at a time (plus the sniffing sample at the
/// start), so a file of any size is read in bounded memory.
///
/// RFC 4180, read leniently where exports are sloppy and strictly where guessing would lose data:
/// - the dialect (delimiter among `,` `;` tab `|` `:`, `""` or `\"` escapes, `#` comment lines)
///   is sniffed from the first lines unless given;
/// - the first row returned is the header (or the first record of a file without one); a title
///   line above it (one non-empty field, then a line with more) is skipped and kept in `title`;
/// - rows with fewer fields than the first are padded with ""; extra fields are kept;
/// - blank lines are skipped; spaces around a quoted field are ignored;
/// - a quote that is never closed, or anything but a delimiter after a closing quote, is an error.
///
/// `LineReader` is a class: copies of a `CSVReader` share its position in the file.
public struct CSVReader {
    /// A row this long is a quote that was never closed, not data.
    public static let defaultMaximumRowBytes = 1 << 22

    public let path: String
    public let dialect: CSVDialect
    /// The title line skipped above the header, its non-empty field.
    public private(set) var title: String?
    /// The field count of the first row, which later rows are padded to.
    public private(set) var width = 0

    private let lines: LineReader
    private let maximumRowBytes: Int
    private var sample: [TextLine] = []
    private var sampleIndex = 0
    private var sampleError: TextDecodingError?
    private var parser: CSVRowParser
    private var queued: [CSVRow] = []
    /// An error in the second row, met while looking for a title line: thrown when that row is due.
    private var deferredError: CSVError?

    public init(lines: LineReader, dialect: CSVDialect? = nil,
                maximumRowBytes: Int = CSVReader.defaultMaximumRowBytes) throws(CSVError) {
        self.lines = lines
        self.path = lines.path
        self.maximumRowBytes = maximumRowBytes
        var sample: [TextLine] = []
        if dialect == nil {
            var bytes = 0
            do {
                while sample.count < CSVDialectSniffer.sampleLines, bytes < CSVDialectSniffer.sampleBytes,
                      let line = try lines.next() {
                    sample.append(line)
                    bytes += line.text.utf8.count
                }
            } catch {
                // The rows before a line that does not decode still read; the error comes in its turn.
                sampleError = error
            }
        }
        let dialect = dialect ?? CSVDialectSniffer.sniff(sample)
        self.dialect = dialect
        self.sample = sample
        self.parser = CSVRowParser(dialect: dialect)

        guard let first = try readRow() else { return }
        var second: CSVRow?
        do {
            second = try readRow()
        } catch {
            deferredError = error
        }
        if let second, CSVReader.nonEmptyCount(first) == 1, CSVReader.nonEmptyCount(second) >= 2 {
            title = first.fields.first { !$0.isEmpty }
            queued = [second]
        } else {
            queued = [first] + (second.map { [$0] } ?? [])
        }
        width = queued[0].count
    }

    /// Opens `path`, refusing files that are plainly some other format (spreadsheets saved under a
    /// CSV name) before they are read as text.
    public init(path: String, dialect: CSVDialect? = nil,
                maximumRowBytes: Int = CSVReader.defaultMaximumRowBytes) throws(CSVError) {
        try self.init(source: SourceFile(path: path, size: 0, modificationTime: 0), dialect: dialect, maximumRowBytes: maximumRowBytes)
    }

    /// Opens a source (the very file that was found, `SourceFile.openForReading`), refusing one
    /// that is plainly some other format (a spreadsheet saved under a CSV name) before it is read
    /// as text.
    public init(source: SourceFile, dialect: CSVDialect? = nil,
                maximumRowBytes: Int = CSVReader.defaultMaximumRowBytes) throws(CSVError) {
        let path = source.readPath
        if let format = CSVReader.foreignFormat(of: source) { throw .notCSV(path: path, format: format) }
        let lines: LineReader
        do {
            lines = try LineReader(source: source)
        } catch {
            throw .text(error)
        }
        try self.init(lines: lines, dialect: dialect, maximumRowBytes: maximumRowBytes)
    }

    /// The next row, padded to the first row's width; nil at the end of the file.
    public mutating func next() throws(CSVError) -> CSVRow? {
        if !queued.isEmpty { return queued.removeFirst().padded(to: width) }
        if let error = deferredError {
            deferredError = nil
            throw error
        }
        return try readRow()?.padded(to: width)
    }

    /// What one line did to the row being read.
    private enum LineOutcome {
        /// Blank or a comment, outside a row.
        case skipped
        case rowEnded
        /// The line ended inside a quoted field.
        case rowGoesOn
        /// The file ended inside a quoted field.
        case endedInQuote
        case failed(CSVRowParser.Failure, line: Int)
    }

    private mutating func readRow() throws(CSVError) -> CSVRow? {
        var start: Int?
        let comment = dialect.commentByte
        reading: while let outcome = try feedNextLine({ parser, number, line, terminator -> LineOutcome in
            if start == nil {
                if line.isEmpty { return .skipped }
                if let comment, line.first == comment { return .skipped }
                start = number
            }
            switch parser.feed(line) {
            case .failure(let failure): return .failed(failure, line: number)
            case .success(true): return .rowEnded
            case .success(false):
                if terminator.isEmpty { return .endedInQuote }
                parser.feedLineBreak(terminator)
                return .rowGoesOn
            }
        }) {
            switch outcome {
            case .skipped, .rowGoesOn:
                if parser.byteCount > maximumRowBytes {
                    parser.reset()
                    throw .rowTooLong(path: path, line: start!, limit: maximumRowBytes)
                }
                continue
            case .rowEnded:
                return parser.takeRow(line: start!)
            case .endedInQuote:
                break reading
            case .failed(let failure, let line):
                parser.reset()
                switch failure {
                case .strayQuote(let field):
                    throw .strayQuote(path: path, line: line, field: field)
                case .textAfterQuote(let field, let text):
                    throw .textAfterQuote(path: path, line: line, field: field, text: text)
                }
            }
        }
        guard let start else { return nil }
        parser.reset()
        throw .unterminatedQuote(path: path, line: start)
    }

    /// Lends the next line's UTF-8 to `body` with the parser: the sniffing sample first, then
    /// the rest of the file straight from the line reader's buffer.
    private mutating func feedNextLine<Result>(
        _ body: (inout CSVRowParser, _ number: Int, _ utf8: UnsafeBufferPointer<UInt8>, _ terminator: String) -> Result
    ) throws(CSVError) -> Result? {
        if sampleIndex < sample.count {
            let line = sample[sampleIndex]
            sampleIndex += 1
            // The sample is replayed once; let it go as soon as it is.
            if sampleIndex == sample.count { sample = []; sampleIndex = 0 }
            var text = line.text
            return text.withUTF8 { body(&parser, line.number, $0, line.terminator) }
        }
        if let error = sampleError {
            sampleError = nil
            throw .text(error)
        }
        do {
            return try lines.withNextLine { body(&parser, $0, $1, $2) }
        } catch {
            throw .text(error)
        }
    }

    private static func nonEmptyCount(_ row: CSVRow) -> Int {
        row.fields.filter { !$0.trimmedWhitespace.isEmpty }.count
    }

    /// What the file is if its first bytes say it is plainly not text.
    static func foreignFormat(of source: SourceFile) -> String? {
        guard let descriptor = try? source.openForReading() else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
        if head.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            return "an Excel 97-2003 workbook (.xls) or another old Office document"
        }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return "a ZIP archive, such as an Excel (.xlsx), Numbers or OpenDocument spreadsheet"
        }
        if head.starts(with: Array("bplist".utf8)) { return "a binary property list" }
        // UTF-16 text has NULs too, but starts with its byte-order mark.
        if head.contains(0), !head.starts(with: [0xFF, 0xFE]), !head.starts(with: [0xFE, 0xFF]) {
            let described = FileTypeDescription.describe(head: head)
            if described != "data of an unknown type" && described != "a text file" { return described }
        }
        return nil
    }
}

// MARK: - CSVRow

/// One record of a CSV file: its fields, and the line it starts on so that a problem in it can
/// be pointed at in the file.
///
/// The fields are kept as one run of UTF-8 bytes (quotes and escapes already undone) with where
/// each ends, not as a `String` each: an import reads most cells as dates, numbers and names
/// straight from the bytes, and makes strings only of the text it keeps.
public struct CSVRow: Hashable, Sendable {
    /// 1-based; a row whose quoted field spans lines is numbered by its first line.
    public let line: Int
    /// The fields' bytes, one after another.
    let bytes: [UInt8]
    /// Where each field ends in `bytes`: field `i` is `ends[i - 1]..<ends[i]` (the first starts at 0).
    let ends: [Int]

    public init(line: Int, fields: [String]) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        ends.reserveCapacity(fields.count)
        for field in fields {
            bytes.append(contentsOf: field.utf8)
            ends.append(bytes.count)
        }
        self.init(line: line, bytes: bytes, ends: ends)
    }

    init(line: Int, bytes: [UInt8], ends: [Int]) {
        self.line = line
        self.bytes = bytes
        self.ends = ends
    }

    /// Never fewer than the header has: missing trailing fields are padded with "".
    public var count: Int { ends.count }

    public var fields: [String] { (0..<count).map(field) }

    public func field(_ index: Int) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range(of: index)]), as: UTF8.self) }
    }

    /// Where field `index` lies in `bytes`.
    func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// The line the row ends on: its first, plus the line breaks inside its quoted fields.
    var lastLine: Int {
        bytes.withUnsafeBufferPointer { bytes in
            var breaks = 0
            for (index, byte) in bytes.enumerated() where byte == 0x0A || (byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) {
                breaks += 1
            }
            return line + breaks
        }
    }

    /// The row with empty fields added up to `width`.
    consuming func padded(to width: Int) -> CSVRow {
        guard count < width else { return self }
        var ends = ends
        ends.append(contentsOf: repeatElement(bytes.count, count: width - count))
        return CSVRow(line: line, bytes: bytes, ends: ends)
    }
}

// MARK: - CSVRowValues

/// What one CSV row says, read through its columns' roles. A cell that cannot be read is left out
/// and described in `problems`, so one bad cell does not cost the rest of the row.
public struct CSVRowValues: Equatable, Sendable {
    /// The row's first line in the file.
    public var line: Int
    public var date: RecordDate?
    /// From the end column, when the row has one.
    public var endDate: RecordDate?
    public var subjectName: String?
    public var kind: String?
    /// From the sub-kind column, kept as the record's `subkind` field.
    public var subKind: String?
    /// In the units records keep (g, cm, ml, min, count), named after their headers.
    public var measurements: [RecordMeasurement]
    /// Numbers in columns that do not say their unit, settled by the importer once it knows the
    /// row's kind and subject.
    var unitless: [UnitlessMeasurement] = []
    /// A wide sheet's numbers, one record each for its column's subject.
    var series: [CSVSeriesValue] = []
    /// The unit column's cell (`lbs`), for the row's unitless number.
    public var unitText: String?
    public var note: String?
    /// The non-empty cells of text columns, by header; cells past the header as "column N".
    public var fields: [String: String]
    /// E.g. "column 'Weight (kg)': 'abc' is not a number".
    public var problems: [String]

    public init(line: Int, date: RecordDate? = nil, subjectName: String? = nil, kind: String? = nil,
                measurements: [RecordMeasurement] = [], note: String? = nil, fields: [String: String] = [:],
                problems: [String] = []) {
        self.line = line
        self.date = date
        self.subjectName = subjectName
        self.kind = kind
        self.measurements = measurements
        self.note = note
        self.fields = fields
        self.problems = problems
    }

    /// The record these values draft, once the importer has the subject and the kind: the note
    /// is its text, or without one, the row as written (`rowText`, only made when needed). The
    /// values' strings and arrays move into the draft, not copied.
    consuming func draft(source: RecordSource, subject: Subject?, date: RecordDate, kind: String?,
                         rowText: @autoclosure () -> String) -> RecordDraft {
        if let subKind { fields["subkind"] = subKind }
        return RecordDraft(source: source, subject: subject, date: date, kind: kind, body: note?[...] ?? "",
                           text: note ?? rowText(), measurements: measurements, fields: fields)
    }
}

// MARK: - CSVSectionBreaks

/// Follows a table's rows in order to tell where a new table starts (`CSVSectionStart`): a
/// header counts only after a blank line or a marker, and a marker only once a header follows it.
struct CSVSectionBreaks {
    /// The row before the one being looked at (kept whole: its end line is only worked out when
    /// the next row has no date, which is seldom).
    private var previous: CSVRow?
    private var previousLine: Int
    /// The marker just met, waiting for its header.
    private(set) var pendingMarker: (name: String, row: CSVRow)?

    init(headerLine: Int) {
        previousLine = headerLine
    }

    /// What `row` starts, if anything; `dated` rows start nothing. A marker's row is held until
    /// the next row says whether it was one (`takeMarker`, `abandonedMarker`).
    mutating func start(of row: CSVRow, dated: Bool) -> CSVSectionStart? {
        defer { previous = row }
        guard !dated else { return nil }
        let lastLine = previous?.lastLine ?? previousLine
        let afterBreak = pendingMarker != nil || row.line > lastLine + 1
        let start = CSVSectionStart(row: row, afterBreak: afterBreak)
        if case .marker(let name)? = start { pendingMarker = (name, row) }
        return start
    }

    /// The waiting marker's name, once its header has come.
    mutating func takeMarker() -> String? {
        defer { pendingMarker = nil }
        return pendingMarker?.name
    }

    /// A marker no header followed (`[Vet said: stop formula]` in a table): the row, to report
    /// as a row with no date.
    mutating func abandonedMarker() -> CSVRow? {
        defer { pendingMarker = nil }
        return pendingMarker?.row
    }
}
