/// A source leaving its path, removed by Dossier once its bytes are safe in the library
/// (`--move`, the daemon): from then on no file at that path is this one edited, so none
/// replaces its records, and none is taken for it unchanged. Recorded in the index before the
/// file goes, and taken back (`LibraryIndex.undo`) if it cannot be removed after all.
public struct SourceDeparture: Sendable, Equatable {
    public let path: String
    /// When: what the index's `departed_at` holds, and what tells this departure's rows from
    /// those of an earlier file at the same path.
    public let at: String

    public init(path: String, at: String) {
        self.path = path
        self.at = at
    }
}
