import GRDB

/// A year file of records as the index knows it: how many records, and the digest of its bytes
/// (so a reader can tell whether the file changed behind the index's back).
public struct RecordFileSummary: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "record_file"

    /// Relative to the library root: `pets/leo/records/2023.jsonl`.
    public var path: String
    public var subject: String
    public var year: Int
    public var count: Int
    public var sha256: String

    public init(path: String, subject: String, year: Int, count: Int, sha256: String) {
        self.path = path
        self.subject = subject
        self.year = year
        self.count = count
        self.sha256 = sha256
    }
}
