import GRDB

/// A rendition filed beside its photo (a HEIC's JPEG), as the index knows it. It is made from
/// the photo, not filed from a source, but it is checked by its bytes like any filed file: a
/// file with a rendition's name is trusted only when these say it holds what Dossier put there.
public struct FiledRendition: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "rendition"

    /// Relative to the library root: `pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg`.
    public var path: String
    /// The filed photo it was made from (a `filed` row's path), what it is made again from.
    public var photoPath: String
    /// SHA-256 of the rendition's bytes.
    public var sha256: String
    public var size: Int64
    public var filedAt: String

    public init(path: String, photoPath: String, sha256: String, size: Int64, filedAt: String) {
        self.path = path
        self.photoPath = photoPath
        self.sha256 = sha256
        self.size = size
        self.filedAt = filedAt
    }

    enum CodingKeys: String, CodingKey {
        case path, sha256, size
        case photoPath = "photo_path"
        case filedAt = "filed_at"
    }
}
