import DossierCore

/// The subject a name header (`[레오]`, `레오:`, `2024-03-02 레오`) set for the lines under it.
enum NotepadHeading: Equatable {
    case none
    case subject(Subject)
    /// The header's name is unknown, or shared by several subjects: the lines under it are
    /// reported rather than filed under whichever subject applied before the header.
    case unresolved(name: String, line: Int, shared: Bool)
}
