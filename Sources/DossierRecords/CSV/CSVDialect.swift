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
