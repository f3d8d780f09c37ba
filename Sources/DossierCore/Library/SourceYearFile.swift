import GRDB

/// A year file that records from one version of a source (its kept copy) went to, and where that
/// version stands in its source's history: what a re-import of an edited source reads to take
/// out the records its earlier versions gave and this one does not.
///
/// A source is known by its history, not by its path alone. The versions of one file, edited in
/// place and imported again, form its lineage (the current version and those it superseded); a
/// file that arrives at a path Dossier emptied (`--move`, the daemon), a quarantined source
/// retried, or a copy at another path starts a lineage of its own. Only the lineage of the file
/// still at a path is replaced by its next version; a departed one's records stay for good.
public struct SourceYearFile: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "source_year_file"

    public var sourcePath: String
    public var keptPath: String
    /// Relative to the library root: `pets/leo/records/2024.jsonl`.
    public var yearFile: String
    /// The subject the source's path gave its entries that name none (nil: none): two sources
    /// with the same bytes give the same records only when their paths route them alike.
    public var routeSubject: String?
    /// A later version of the same file was imported: its records are that version's to replace.
    public var superseded: Bool
    /// When the file left its path (removed by Dossier once filed, or read from the quarantine):
    /// from then on no file at that path is this one edited, and its records are never replaced.
    public var departedAt: String?

    public init(sourcePath: String, keptPath: String, yearFile: String, routeSubject: String? = nil,
                superseded: Bool = false, departedAt: String? = nil) {
        self.sourcePath = sourcePath
        self.keptPath = keptPath
        self.yearFile = yearFile
        self.routeSubject = routeSubject
        self.superseded = superseded
        self.departedAt = departedAt
    }

    /// The version still at its path: neither superseded nor departed.
    public var isCurrent: Bool { !superseded && departedAt == nil }

    enum CodingKeys: String, CodingKey {
        case sourcePath = "source_path"
        case keptPath = "kept_path"
        case yearFile = "year_file"
        case routeSubject = "route_subject"
        case superseded
        case departedAt = "departed_at"
    }
}
