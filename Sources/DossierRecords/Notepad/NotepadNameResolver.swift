import DossierCore

/// Decides what a word in a name position is, for one parser: the directory's answer, overruled
/// by the options' non-names, with the file's own subject known by its id even when the directory
/// was built without it.
struct NotepadNameResolver {
    let directory: SubjectDirectory
    let nonNames: Set<String>
    let fileSubject: Subject?

    init(directory: SubjectDirectory, nonNames: Set<String>, fileSubject: Subject?) {
        self.directory = directory
        self.nonNames = Set(nonNames.map(SubjectDirectory.key).filter { !$0.isEmpty })
        self.fileSubject = fileSubject
    }

    var longestNameWords: Int { directory.longestNameWords }

    /// `spelled` holds no white space when `singleWord`, which spares splitting it.
    func resolve(_ spelled: String, singleWord: Bool) -> SubjectNameLookup {
        let key = singleWord ? spelled.lowercased() : SubjectDirectory.key(spelled)
        if nonNames.contains(key) { return .notAName }
        let found = directory.lookup(key: key)
        if found == .unknown, let fileSubject, key == fileSubject.id.rawValue { return .subject(fileSubject) }
        return found
    }

    /// False when no name has this many UTF-8 bytes (for words in NFC and lower case).
    func mayName(byteCount: Int) -> Bool {
        directory.mayHaveKey(ofByteCount: byteCount) || byteCount == fileSubject?.id.rawValue.utf8.count
    }
}
