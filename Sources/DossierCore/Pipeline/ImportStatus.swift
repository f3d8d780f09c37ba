/// What became of one source.
public enum ImportStatus: String, CaseIterable, Sendable, Codable {
    /// Filed (or, in a dry run, would be).
    case imported
    /// Its content is already in the subject's folder; nothing written.
    case duplicate
    /// No subject could be found for it; nothing written.
    case unassigned
    /// Not a kind of file any importer reads; nothing written.
    case skipped
    /// Unreadable or bad data; nothing written, the source untouched.
    case failed
}
