import GRDB

/// A file in the daemon's inbox that could be neither filed nor quarantined (unreadable, a link
/// that leads nowhere or loops): it stays where it is, and `dossier quarantine list` shows it
/// with the reason, so it is never lost from view. The daemon tries it again when it changes
/// (a permission fixed, a link's target back) and on SIGHUP, and forgets it once it leaves.
public struct StuckSource: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "stuck_source"

    /// Where it is, in the inbox.
    public var path: String
    /// Why it was not filed, and why it could not be quarantined.
    public var reason: String
    /// When the daemon first found it stuck.
    public var since: String

    public init(path: String, reason: String, since: String) {
        self.path = path
        self.reason = reason
        self.since = since
    }
}
