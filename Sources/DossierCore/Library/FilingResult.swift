/// What filing one item did.
public enum FilingResult: Equatable, Sendable {
    /// Written (or, in a dry run, would be) at this path relative to the library root.
    case filed(path: String, digest: ContentDigest)
    /// Found already in the subject folder with identical bytes but not in the index (an earlier
    /// run was stopped between writing and indexing): adopted, nothing written.
    case adopted(path: String, digest: ContentDigest)
    /// Written again under the name it was filed under before, where a damaged copy stood (or
    /// nothing did): the damaged copies (the photo, its rendition) kept at these paths under
    /// `damaged/`, relative to the library root.
    case refiled(path: String, digest: ContentDigest, damagedCopies: [String])
    /// The subject already has a file with these bytes.
    case duplicate(path: String)
    /// The index holds it filed at this path, and nothing is there (deleted by hand): filed again
    /// only when `dossier verify --repair` asked for it.
    case missing(path: String)
}
