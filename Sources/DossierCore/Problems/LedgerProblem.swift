import GRDB

/// One row of the problems ledger: a line or entry of a source that was not filed, with the
/// library's copy of that source, so it can be read again once its cause is fixed
/// (`dossier problems retry`).
public struct LedgerProblem: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "problem"

    public var id: Int64?
    /// The source as the user named it.
    public var sourcePath: String
    /// The kept copy, relative to the library (nil when the source could not be kept: a dry run).
    public var keptPath: String?
    public var line: Int?
    public var text: String?
    public var reason: String
    public var foundAt: String
    /// The subject the source's path (or --subject) gave entries that name none, when it gave one.
    public var routeSubject: String?

    public init(id: Int64? = nil, sourcePath: String, keptPath: String?, line: Int?, text: String?, reason: String,
                foundAt: String, routeSubject: String? = nil) {
        self.id = id
        self.sourcePath = sourcePath
        self.keptPath = keptPath
        self.line = line
        self.text = text
        self.reason = reason
        self.foundAt = foundAt
        self.routeSubject = routeSubject
    }

    enum CodingKeys: String, CodingKey {
        case id, line, text, reason
        case sourcePath = "source_path"
        case keptPath = "kept_path"
        case foundAt = "found_at"
        case routeSubject = "route_subject"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
