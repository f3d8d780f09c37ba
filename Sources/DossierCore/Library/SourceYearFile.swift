import GRDB

/// A year file that records from one version of a source (its kept copy) went to: what a
/// re-import of an edited source reads to take out that version's records.
public struct SourceYearFile: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "source_year_file"

    public var sourcePath: String
    public var keptPath: String
    /// Relative to the library root: `pets/leo/records/2024.jsonl`.
    public var yearFile: String

    public init(sourcePath: String, keptPath: String, yearFile: String) {
        self.sourcePath = sourcePath
        self.keptPath = keptPath
        self.yearFile = yearFile
    }

    enum CodingKeys: String, CodingKey {
        case sourcePath = "source_path"
        case keptPath = "kept_path"
        case yearFile = "year_file"
    }
}
