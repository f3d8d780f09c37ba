/// One line of a text file, decoded, with what ended it.
public struct TextLine: Hashable, Sendable {
    /// 1-based.
    public let number: Int
    /// Without its terminator.
    public let text: String
    /// "\n", "\r\n", "\r", or "" for a last line with none. CSV keeps it inside quoted fields.
    public let terminator: String

    public init(number: Int, text: String, terminator: String) {
        self.number = number
        self.text = text
        self.terminator = terminator
    }
}
