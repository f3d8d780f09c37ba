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
        if let format = CSVReader.foreignFormat(at: path) { throw .notCSV(path: path, format: format) }
        let lines: LineReader
        do {
            lines = try LineReader(path: path)
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
    static func foreignFormat(at path: String) -> String? {
        let descriptor = SourcePath.openForReading(path)
        guard descriptor >= 0 else { return nil }
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
