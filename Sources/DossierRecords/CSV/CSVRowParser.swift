/// The RFC 4180 state machine, fed one line at a time: a row never needs more than its own lines
/// in memory, and the reader and the dialect sniffer split rows the same way.
struct CSVRowParser {
    enum Failure: Error, Equatable {
        case strayQuote(field: Int)
        case textAfterQuote(field: Int, text: String)
    }

    private enum State { case fieldStart, unquoted, quoted, afterQuote }

    let delimiter: UInt8
    let escape: CSVDialect.QuoteEscape
    /// UTF-8 bytes fed into the current row, to stop a runaway quoted field.
    private(set) var byteCount = 0
    /// The row's fields so far, unescaped, one after another (see `CSVRow`).
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Where the field being read starts in `bytes`.
    private var fieldStart = 0
    private var state = State.fieldStart

    init(delimiter: UInt8, escape: CSVDialect.QuoteEscape) {
        self.delimiter = delimiter
        self.escape = escape
    }

    init(dialect: CSVDialect) {
        self.init(delimiter: dialect.delimiterByte, escape: dialect.quoteEscape)
    }

    /// Feeds one line (valid UTF-8, without its terminator); true when the row ended with it,
    /// false when the line ended inside a quoted field and the row goes on.
    mutating func feed(_ line: UnsafeBufferPointer<UInt8>) -> Result<Bool, Failure> {
        if let failure = consume(line) { return .failure(failure) }
        if state == .quoted { return .success(false) }
        endField()
        return .success(true)
    }

    /// The same for a line held as a string (the dialect sniffer's sample).
    mutating func feed(_ line: String) throws(Failure) -> Bool {
        var text = line
        return try text.withUTF8 { feed($0) }.get()
    }

    /// The line break that ended a line inside a quoted field belongs to the field, as written.
    mutating func feedLineBreak(_ terminator: String) {
        bytes.append(contentsOf: terminator.utf8)
        byteCount += terminator.utf8.count
    }

    /// The row; the parser is ready for the next one.
    mutating func takeRow(line: Int) -> CSVRow {
        defer { reset() }
        // The row takes the buffers (no copy); the next row starts new ones as big as the
        // longest row so far (up to `reservedBytesLimit`): rows of notes differ in length, and
        // room for only the last row's had most rows grow their buffer, a copy and a second
        // allocation each.
        let row = CSVRow(line: line, bytes: bytes, ends: ends)
        reservedBytes = min(max(reservedBytes, row.bytes.count), CSVRowParser.reservedBytesLimit)
        bytes = []
        bytes.reserveCapacity(reservedBytes)
        ends = []
        ends.reserveCapacity(row.ends.count)
        return row
    }

    /// What a new row's buffer is given room for: the longest row so far, up to this.
    private var reservedBytes = 0
    static let reservedBytesLimit = 4096

    /// The row's fields as strings; the parser is ready for the next row.
    mutating func takeFields() -> [String] {
        takeRow(line: 0).fields
    }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        fieldStart = 0
        state = .fieldStart
        byteCount = 0
    }

    private mutating func endField() {
        ends.append(bytes.count)
        fieldStart = bytes.count
        state = .fieldStart
    }

    private mutating func consume(_ line: UnsafeBufferPointer<UInt8>) -> Failure? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        let count = line.count
        byteCount += count
        var index = 0
        while index < count {
            let byte = line[index]
            switch state {
            case .fieldStart:
                if byte == delimiter {
                    endField()
                } else if byte == quote && bytes[fieldStart...].allSatisfy({ $0 == space || $0 == tab }) {
                    // Spaces before an opening quote (`a, "b"`) are layout, not content.
                    bytes.removeSubrange(fieldStart...)
                    state = .quoted
                } else {
                    bytes.append(byte)
                    if byte != space && byte != tab { state = .unquoted }
                }
            case .unquoted:
                // Most fields are plain: copy up to the next delimiter in one go.
                let end = CSVRowParser.firstIndex(of: delimiter, or: delimiter, in: line, from: index)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[index..<end]))
                if end < count { endField() }
                index = end + 1
                continue
            case .quoted:
                if byte == quote {
                    if index + 1 < count && line[index + 1] == quote {
                        bytes.append(quote)
                        index += 2
                        continue
                    }
                    state = .afterQuote
                } else if byte == backslash, escape == .backslash, index + 1 < count,
                          line[index + 1] == quote || line[index + 1] == backslash {
                    bytes.append(line[index + 1])
                    index += 2
                    continue
                } else {
                    // Copy up to the next quote or backslash in one go.
                    let end = CSVRowParser.firstIndex(of: quote, or: backslash, in: line, from: index + 1)
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[index..<end]))
                    index = end
                    continue
                }
            case .afterQuote:
                if byte == delimiter {
                    endField()
                } else if byte == quote {
                    return .strayQuote(field: ends.count + 1)
                } else if byte != space && byte != tab {
                    var end = index
                    while end < count && line[end] != delimiter && end - index < 20 { end += 1 }
                    let text = String(decoding: UnsafeBufferPointer(rebasing: line[index..<end]), as: UTF8.self)
                    return .textAfterQuote(field: ends.count + 1, text: text)
                }
            }
            index += 1
        }
        return nil
    }

    /// The index of the first `a` or `b` at or after `start`, or the line's count if there is
    /// none. Eight bytes at a time (the "has a zero byte" word trick, whose lowest hit is always
    /// a true one): quoted notes run to a hundred bytes and more, and a CSV of them is mostly notes
    /// (docs/performance.md, "CSVRowParser").
    private static func firstIndex(of a: UInt8, or b: UInt8, in line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let count = line.count
        var index = start
        if let base = line.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            let manyA = ones &* UInt64(a), manyB = ones &* UInt64(b)
            while index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let xa = word ^ manyA, xb = word ^ manyB
                let hits = ((xa &- ones) & ~xa | (xb &- ones) & ~xb) & highs
                if hits != 0 { return index + hits.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < count && line[index] != a && line[index] != b { index += 1 }
        return index
    }
}

// MARK: - CSVDialect

/// How one CSV file is written. Exports disagree on all of it, so `CSVReader` sniffs it from the
/// first lines unless told.
public struct CSVDialect: Hashable, Sendable, CustomStringConvertible {
    /// How a quote is written inside a quoted field.
    public enum QuoteEscape: String, Hashable, Sendable {
        /// RFC 4180: `""`.
        case doubled
        /// `\"` (and `\\`), as some programs write; `""` is still read as a quote too.
        case backslash
    }

    /// The delimiters sniffing chooses among, most usual first: ties go to the earlier one.
    public static let candidateDelimiters: [Character] = [",", ";", "\t", "|", ":"]

    public let delimiter: Character
    public let quoteEscape: QuoteEscape
    /// A line starting with this, outside a quoted field, is skipped.
    public let commentPrefix: Character?

    /// `delimiter` and `commentPrefix` must be single ASCII characters other than `"`, CR and LF.
    public init(delimiter: Character = ",", quoteEscape: QuoteEscape = .doubled, commentPrefix: Character? = nil) {
        precondition(CSVDialect.isUsable(delimiter), "a CSV delimiter must be one ASCII character")
        precondition(commentPrefix.map(CSVDialect.isUsable) ?? true, "a comment prefix must be one ASCII character")
        self.delimiter = delimiter
        self.quoteEscape = quoteEscape
        self.commentPrefix = commentPrefix
    }

    public var description: String {
        let name = delimiter == "\t" ? "tab" : "'\(delimiter)'"
        var text = "delimiter \(name), quotes escaped \(quoteEscape == .doubled ? "as \"\"" : "as \\\"")"
        if let commentPrefix { text += ", comment lines start with '\(commentPrefix)'" }
        return text
    }

    var delimiterByte: UInt8 { delimiter.asciiValue! }
    var commentByte: UInt8? { commentPrefix?.asciiValue }

    private static func isUsable(_ character: Character) -> Bool {
        guard let value = character.asciiValue else { return false }
        return value != UInt8(ascii: "\"") && value != 0x0A && value != 0x0D
    }
}

// MARK: - CSVDialectSniffer

/// Tells a file's dialect from its first lines, as a person would: the delimiter is the one that
/// splits the lines, outside quotes, into as many fields as the header has, or fewer: exports
/// leave out empty trailing fields (a baby tracker's Note, written on one row in ten). Counting
/// only rows of one width chose `:` for such a file, whose every row had one colon in its
/// quoted time (`"1/13/26, 15:58"`), and the file was not read as CSV at all.
enum CSVDialectSniffer {
    /// Enough lines to see a header and some rows; a sample is held whole, so it is bounded.
    static let sampleLines = 64
    static let sampleBytes = 1 << 16

    private struct SampleRow {
        let fieldCount: Int
        let startsWithHash: Bool
    }

    private struct Candidate {
        let dialect: CSVDialect
        let order: Int
        let consistency: Double
        let consistentRows: Int
        /// The header's width: the first row of two or more fields.
        let width: Int

        func isBetter(than other: Candidate) -> Bool {
            if consistency != other.consistency { return consistency > other.consistency }
            if consistentRows != other.consistentRows { return consistentRows > other.consistentRows }
            if order != other.order { return order < other.order }
            return dialect.quoteEscape == .doubled && other.dialect.quoteEscape != .doubled
        }
    }

    static func sniff(_ lines: [TextLine]) -> CSVDialect {
        // Backslash escapes are only worth trying where the sample has one.
        let escapes: [CSVDialect.QuoteEscape] = lines.contains { $0.text.contains("\\\"") } ? [.doubled, .backslash] : [.doubled]
        var best: (candidate: Candidate, rows: [SampleRow])?
        for (order, delimiter) in CSVDialect.candidateDelimiters.enumerated() {
            for escape in escapes {
                let dialect = CSVDialect(delimiter: delimiter, quoteEscape: escape)
                let (rows, failures) = split(lines, dialect)
                guard let width = rows.prefix(3).first(where: { $0.fieldCount >= 2 })?.fieldCount else { continue }
                let consistent = rows.filter { (2...width).contains($0.fieldCount) }.count
                let candidate = Candidate(dialect: dialect, order: order,
                                          consistency: Double(consistent) / Double(rows.count + failures),
                                          consistentRows: consistent, width: width)
                if best.map({ candidate.isBetter(than: $0.candidate) }) ?? true { best = (candidate, rows) }
            }
        }
        guard let best else { return CSVDialect() }
        // `#` lines are comments only where one does not fit the table: a row may start with `#`.
        let hasComments = best.rows.contains { $0.startsWithHash && !(2...best.candidate.width).contains($0.fieldCount) }
        return CSVDialect(delimiter: best.candidate.dialect.delimiter, quoteEscape: best.candidate.dialect.quoteEscape,
                          commentPrefix: hasComments ? "#" : nil)
    }

    /// The field counts of the rows the sample holds whole, and how many rows did not parse.
    private static func split(_ lines: [TextLine], _ dialect: CSVDialect) -> ([SampleRow], Int) {
        var parser = CSVRowParser(dialect: dialect)
        var rows: [SampleRow] = []
        var failures = 0
        var rowStart: TextLine?
        for line in lines {
            if rowStart == nil {
                if line.text.isEmpty { continue }
                rowStart = line
            }
            do {
                if try parser.feed(line.text) {
                    rows.append(SampleRow(fieldCount: parser.takeFields().count, startsWithHash: rowStart!.text.hasPrefix("#")))
                    rowStart = nil
                } else {
                    parser.feedLineBreak(line.terminator)
                }
            } catch {
                failures += 1
                parser.reset()
                rowStart = nil
            }
        }
        return (rows, failures)
    }
}
