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
    private(set) var fields: [String] = []
    /// UTF-8 bytes fed into the current row, to stop a runaway quoted field.
    private(set) var byteCount = 0
    private var field: [UInt8] = []
    private var state = State.fieldStart

    init(delimiter: UInt8, escape: CSVDialect.QuoteEscape) {
        self.delimiter = delimiter
        self.escape = escape
    }

    init(dialect: CSVDialect) {
        self.init(delimiter: dialect.delimiterByte, escape: dialect.quoteEscape)
    }

    /// Feeds one line without its terminator; true when the row ended with it, false when the
    /// line ended inside a quoted field and the row goes on.
    mutating func feed(_ line: String) throws(Failure) -> Bool {
        var text = line
        let failure = text.withUTF8 { bytes in consume(bytes) }
        if let failure { throw failure }
        if state == .quoted { return false }
        endField()
        return true
    }

    /// The line break that ended a line inside a quoted field belongs to the field, as written.
    mutating func feedLineBreak(_ terminator: String) {
        field.append(contentsOf: terminator.utf8)
        byteCount += terminator.utf8.count
    }

    /// The row's fields; the parser is ready for the next row.
    mutating func takeFields() -> [String] {
        defer { reset() }
        return fields
    }

    mutating func reset() {
        fields = []
        field.removeAll(keepingCapacity: true)
        state = .fieldStart
        byteCount = 0
    }

    private mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
        state = .fieldStart
    }

    private mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>) -> Failure? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        let count = bytes.count
        byteCount += count
        var index = 0
        while index < count {
            let byte = bytes[index]
            switch state {
            case .fieldStart:
                if byte == delimiter {
                    endField()
                } else if byte == quote && field.allSatisfy({ $0 == space || $0 == tab }) {
                    // Spaces before an opening quote (`a, "b"`) are layout, not content.
                    field.removeAll(keepingCapacity: true)
                    state = .quoted
                } else {
                    field.append(byte)
                    if byte != space && byte != tab { state = .unquoted }
                }
            case .unquoted:
                // Most fields are plain: copy up to the next delimiter in one go.
                var end = index
                while end < count && bytes[end] != delimiter { end += 1 }
                field.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                if end < count { endField() }
                index = end + 1
                continue
            case .quoted:
                if byte == quote {
                    if index + 1 < count && bytes[index + 1] == quote {
                        field.append(quote)
                        index += 2
                        continue
                    }
                    state = .afterQuote
                } else if byte == backslash, escape == .backslash, index + 1 < count,
                          bytes[index + 1] == quote || bytes[index + 1] == backslash {
                    field.append(bytes[index + 1])
                    index += 2
                    continue
                } else {
                    field.append(byte)
                }
            case .afterQuote:
                if byte == delimiter {
                    endField()
                } else if byte == quote {
                    return .strayQuote(field: fields.count + 1)
                } else if byte != space && byte != tab {
                    var end = index
                    while end < count && bytes[end] != delimiter && end - index < 20 { end += 1 }
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
                    return .textAfterQuote(field: fields.count + 1, text: text)
                }
            }
            index += 1
        }
        return nil
    }
}
