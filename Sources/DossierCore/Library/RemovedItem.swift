import GRDB

/// One file taken out of its subject's folder by `dossier remove` or `dossier move`
/// (`FiledItemMover`): where it was, what it held, where its bytes are now. Kept in the index, so
/// neither `verify` nor a later import brings it back: an import of its source for the subject it
/// left says it was removed (skipped) or moved (a duplicate of where it went).
///
/// A row is also the journal of the command that took the file out: written `planned` before a
/// name is touched, `recorded` in the transaction that changes what the index says is filed, and
/// `done` once its old name is gone. A command killed in between is undone (planned) or finished
/// (recorded) by the next run that opens the library for writing (`FiledItemMover.finishInterrupted`).
public struct RemovedItem: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "removed_item"

    /// Which command took it out.
    public enum Command: String, Codable, Sendable {
        case remove
        case move
    }

    /// What the file was to the item: a filed file (a photo, movie, raw, sidecar, video, sound),
    /// a rendition made from one, or the original its source's bytes were kept as.
    public enum Role: String, Codable, Sendable {
        case filed
        case rendition
        case original
    }

    /// How far the command that took it out got.
    public enum State: String, Codable, Sendable {
        /// Its new name may be linked; the index still holds it where it was.
        case planned
        /// The index holds it where it went (or no more); its old name may still be there.
        case recorded
        /// Its old name is gone.
        case done
    }

    public var id: Int64?
    public var command: Command
    public var role: Role
    /// Where it was, relative to the library root.
    public var path: String
    /// The subject it was filed under (`pets/leo`).
    public var subject: String
    /// SHA-256 of its bytes.
    public var sha256: String
    /// SHA-256 of the source it was filed from; nil when the index did not know it (rebuilt).
    public var sourceSha256: String?
    /// Where its bytes are now, relative to the root: `removed/<day>/<path>` (remove), its new
    /// name (move); nil when nothing stood at its name (a file deleted by hand, forgotten).
    public var bytesAt: String?
    /// When it was taken out.
    public var at: String
    public var state: State

    public init(command: Command, role: Role, path: String, subject: String, sha256: String, sourceSha256: String?,
                bytesAt: String?, at: String, state: State = .planned) {
        self.command = command
        self.role = role
        self.path = path
        self.subject = subject
        self.sha256 = sha256
        self.sourceSha256 = sourceSha256
        self.bytesAt = bytesAt
        self.at = at
        self.state = state
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    enum CodingKeys: String, CodingKey {
        case id, command, role, path, subject, sha256, at, state
        case sourceSha256 = "source_sha256"
        case bytesAt = "bytes_at"
    }
}
