/// What filing a custom item did.
public enum CustomFilingResult: Sendable, Equatable {
    /// Written (or, in a dry run, would be) at this path relative to the library root.
    case filed(path: String)
    /// Already there as it is.
    case unchanged(path: String)
}
