/// Where a record was read: the file and its 1-based line (for CSV, the row's first line).
public struct RecordSource: Hashable, Sendable, Codable {
    public let path: String
    public let line: Int

    public init(path: String, line: Int) {
        self.path = path
        self.line = line
    }
}
