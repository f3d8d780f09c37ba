import DossierCore

/// What a word written where a name may stand turned out to be.
enum SubjectNameLookup: Sendable, Equatable {
    case subject(Subject)
    /// Two or more subjects answer to it: filing under either would be a guess.
    case ambiguous([Subject])
    case unknown
    /// Listed in `NotepadOptions.nonNames`: a keyword or food, never a name.
    case notAName
}
