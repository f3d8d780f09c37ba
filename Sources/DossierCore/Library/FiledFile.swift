import GRDB

/// One file in a subject folder, as the index knows it.
public struct FiledFile: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "filed"

    /// Relative to the library root, e.g. `pets/leo/photos/2024/...jpg`.
    public var path: String
    /// `pets/leo`.
    public var subject: String
    /// SHA-256 of the filed bytes.
    public var sha256: String
    /// SHA-256 of the source it came from; nil when the index was rebuilt from the folders.
    public var sourceSha256: String?
    public var size: Int64
    public var capturedAt: String?
    public var filedAt: String
    /// Apple's content identifier, which a Live Photo's still and movie share: how the two find
    /// each other across imports, whatever their names.
    public var contentIdentifier: String?

    public init(path: String, subject: String, sha256: String, sourceSha256: String?, size: Int64,
                capturedAt: String?, filedAt: String, contentIdentifier: String? = nil) {
        self.path = path
        self.subject = subject
        self.sha256 = sha256
        self.sourceSha256 = sourceSha256
        self.size = size
        self.capturedAt = capturedAt
        self.filedAt = filedAt
        self.contentIdentifier = contentIdentifier
    }

    enum CodingKeys: String, CodingKey {
        case path, subject, sha256, size
        case sourceSha256 = "source_sha256"
        case capturedAt = "captured_at"
        case filedAt = "filed_at"
        case contentIdentifier = "content_identifier"
    }
}
