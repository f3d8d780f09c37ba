import GRDB

/// A source whose bytes the library keeps under `sources/`: once per content.
public struct KeptSource: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "kept_source"

    public var sha256: String
    /// Relative to the library root.
    public var path: String
    public var size: Int64

    public init(sha256: String, path: String, size: Int64) {
        self.sha256 = sha256
        self.path = path
        self.size = size
    }
}
