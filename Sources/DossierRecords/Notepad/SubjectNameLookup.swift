import DossierCore

/// What a word written where a name may stand turned out to be.
enum SubjectNameLookup: Sendable, Equatable {
    case subject(Subject)
    /// Two or more subjects answer to it: filing under either would be a guess.
    case ambiguous([Subject])
    case unknown
    /// Never a name: a keyword or food (`NotepadOptions.nonNames`), a time of day or note word
    /// no subject answers to, or, in a file of one subject, any word no subject answers to.
    case notAName
}
