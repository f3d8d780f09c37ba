import Foundation

/// A source that could not be filed, as its `<name>.error.json` in the quarantine says.
public struct QuarantineEntry: Codable, Sendable, Equatable {
    /// `2026-11-25/IMG_0001.jpg`: the day folder and the name, what `dossier quarantine` takes.
    public var id: String
    /// Where the source was (its path in the inbox); routing reads its folders again on a retry.
    public var originalPath: String
    /// The folder whose subfolders routing reads (the inbox); nil: every folder above the file.
    public var inbox: String?
    /// The stage it stopped at: sniff (not a kind Dossier reads), read (damaged), route (no
    /// subject), ...
    public var stage: ImportStage
    public var reason: String
    public var quarantinedAt: String
    /// The Dossier that quarantined it: worth a retry after an upgrade.
    public var version: String
    public var sha256: String
    public var size: Int64
    /// How often `dossier quarantine retry` has tried it since.
    public var retries: Int

    public init(id: String, originalPath: String, inbox: String?, stage: ImportStage, reason: String,
                quarantinedAt: String, version: String, sha256: String, size: Int64, retries: Int = 0) {
        self.id = id
        self.originalPath = originalPath
        self.inbox = inbox
        self.stage = stage
        self.reason = reason
        self.quarantinedAt = quarantinedAt
        self.version = version
        self.sha256 = sha256
        self.size = size
        self.retries = retries
    }
}
