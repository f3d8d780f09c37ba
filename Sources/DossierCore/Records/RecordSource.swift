/// Where a record was read: the file and its 1-based line (for CSV, the row's first line), and
/// the library's own copy of that file's bytes (`sources/...`, relative to the library), so the
/// line can be read again whatever becomes of the original.
public struct RecordSource: Hashable, Sendable, Codable {
    public let path: String
    public let line: Int
    /// The kept copy, relative to the library; nil for records filed before sources were kept.
    public var kept: String?

    public init(path: String, line: Int, kept: String? = nil) {
        self.path = path
        self.line = line
        self.kept = kept
    }
}
