import GRDB

/// A source that an earlier import settled, so a re-run can skip it without reading it while its
/// path, size and modification time are unchanged, and it is still the file that was imported
/// (not removed by Dossier since: a file that lands on a path Dossier emptied is a new one).
public struct ImportedSource: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "source"

    public var path: String
    /// The `--subject` of that run ("" without one): the same file imported for another subject
    /// is another import.
    public var requestedSubject: String
    public var size: Int64
    public var modificationTime: Int64
    public var sha256: String
    public var subject: String
    /// The filed file holding its content, relative to the library root.
    public var filedPath: String
    /// When Dossier removed it from its path once it was safe in the library (`--move`, the
    /// daemon); nil while it is still there.
    public var departedAt: String?

    public init(path: String, requestedSubject: String, size: Int64, modificationTime: Int64, sha256: String,
                subject: String, filedPath: String, departedAt: String? = nil) {
        self.path = path
        self.requestedSubject = requestedSubject
        self.size = size
        self.modificationTime = modificationTime
        self.sha256 = sha256
        self.subject = subject
        self.filedPath = filedPath
        self.departedAt = departedAt
    }

    enum CodingKeys: String, CodingKey {
        case path, size, sha256, subject
        case requestedSubject = "requested_subject"
        case modificationTime = "mtime_ns"
        case filedPath = "filed_path"
        case departedAt = "departed_at"
    }
}
