/// A profile field a person typed (`dossier subjects add` or `edit`) that an import would have
/// changed and did not (`--overwrite-profiles` would have): said, so a difference is never
/// dropped silently.
public struct TypedFieldKept: Sendable, Equatable {
    /// As `profile.json` names it: `born`, `sex`, `species`...
    public let field: String
    /// The value typed, which stays.
    public let kept: String
    /// The value the import gave.
    public let imported: String

    public init(field: String, kept: String, imported: String) {
        self.field = field
        self.kept = kept
        self.imported = imported
    }
}
