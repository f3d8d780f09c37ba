import GRDB

/// A filed photo `dossier verify` found damaged, with a good copy to file it again from, or one
/// `verify --repair` found missing: the next import (or daemon batch) into the library files it
/// again, then forgets it. A missing file is filed again only when noted so (`--repair`).
/// Kept in the index, since the person who ran `verify` may import days later.
public struct CopyToMend: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "copy_to_mend"

    /// The filed file's path, relative to the library root.
    public var path: String
    /// The subject it was filed under (`pets/leo`), which the good copy is filed for again.
    public var subject: String
    /// In the library (an original under `originals/`, a rendition's photo), relative to its
    /// root, so a copied library mends from its own files; outside it (the source still where it
    /// was imported from), absolute. Empty for a missing file `verify --repair` found no good copy
    /// of: the next import of its source files it again (`SourceWorker`), as asked.
    public var goodCopy: String
    public var foundAt: String

    public init(path: String, subject: String, goodCopy: String, foundAt: String) {
        self.path = path
        self.subject = subject
        self.goodCopy = goodCopy
        self.foundAt = foundAt
    }

    enum CodingKeys: String, CodingKey {
        case path, subject
        case goodCopy = "good_copy"
        case foundAt = "found_at"
    }
}
