import GRDB

/// A photo's source bytes, kept under `originals/` once per content, beside the name the photo
/// was filed under (`originals/pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg`): the
/// camera's own bytes, for when the filed file is not them.
public struct KeptOriginal: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "original"

    /// Relative to the library root.
    public var path: String
    /// SHA-256 of the source's bytes: the filed file's `source_sha256`.
    public var sha256: String
    public var size: Int64

    public init(sha256: String, path: String, size: Int64) {
        self.sha256 = sha256
        self.path = path
        self.size = size
    }
}
