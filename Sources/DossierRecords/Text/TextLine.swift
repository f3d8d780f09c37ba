/// One line of a text file, decoded, with what ended it.
public struct TextLine: Hashable, Sendable {
    /// 1-based.
    public let number: Int
    /// Without its terminator; empty for a line too long to read.
    public let text: String
    /// "\n", "\r\n", "\r", or "" for a last line with none. CSV keeps it inside quoted fields.
    public let terminator: String
    /// The length in bytes of a line longer than `LineReader.maximumLineBytes`, which is skipped
    /// unread (no log line that long is a care entry; holding it would cost memory without end).
    public let overlongByteCount: Int?

    public init(number: Int, text: String, terminator: String, overlongByteCount: Int? = nil) {
        self.number = number
        self.text = text
        self.terminator = terminator
        self.overlongByteCount = overlongByteCount
    }
}
