/// A word the scanner read as a name (`[레오]`, `레오:`, `레오 -`, or a known bare name), with
/// what the directory made of it.
struct NotepadNameMark: Equatable {
    /// As written, trimmed: quoted back in problems so the keeper recognises it.
    var spelled: String
    var lookup: SubjectNameLookup
}
