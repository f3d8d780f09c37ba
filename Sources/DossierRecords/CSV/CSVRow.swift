/// One record of a CSV file: its fields, and the line it starts on so that a problem in it can
/// be pointed at in the file.
public struct CSVRow: Hashable, Sendable {
    /// 1-based; a row whose quoted field spans lines is numbered by its first line.
    public let line: Int
    /// Never fewer than the header has: missing trailing fields are padded with "".
    public let fields: [String]

    public init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }
}
