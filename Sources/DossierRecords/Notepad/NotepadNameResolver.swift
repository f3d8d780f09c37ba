import DossierCore

/// Decides what a word in a name position is, for one parser: the directory's answer, overruled
/// by the options' non-names, with the file's own subject known by its id even when the directory
/// was built without it.
///
/// A class, and one per parser: every line's scanner asks it, and a log names the same few
/// subjects on line after line, so each spelling is worked out once and remembered.
final class NotepadNameResolver {
    let directory: SubjectDirectory
    let nonNames: Set<String>
    let fileSubject: Subject?
    // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
    /// Answers by spelling, for single words and for names of several words.
    @exclusivity(unchecked) private var singleWordAnswers = BoundedMemo<SubjectNameLookup>()
    @exclusivity(unchecked) private var severalWordAnswers = BoundedMemo<SubjectNameLookup>()

    init(directory: SubjectDirectory, nonNames: Set<String>, fileSubject: Subject?) {
        self.directory = directory
        self.nonNames = Set(nonNames.map(SubjectDirectory.key).filter { !$0.isEmpty })
        self.fileSubject = fileSubject
    }

    var longestNameWords: Int { directory.longestNameWords }

    /// `spelled` holds no white space when `singleWord`, which spares splitting it.
    func resolve(_ spelled: String, singleWord: Bool) -> SubjectNameLookup {
        singleWord ? singleWordAnswers.answer(spelled) { lookUp($0, singleWord: true) }
            : severalWordAnswers.answer(spelled) { lookUp($0, singleWord: false) }
    }

    private func lookUp(_ spelled: String, singleWord: Bool) -> SubjectNameLookup {
        let key = singleWord ? spelled.lowercased() : SubjectDirectory.key(spelled)
        if nonNames.contains(key) { return .notAName }
        let found = directory.lookup(key: key)
        // A pet may be called Midnight: the directory is asked first.
        if found == .unknown, NotepadWords.neverNames.contains(key) { return .notAName }
        if found == .unknown, let fileSubject, key == fileSubject.id.rawValue { return .subject(fileSubject) }
        if found == .unknown, singleWord, let stem = NotepadNameResolver.stemWithoutParticle(key) {
            // 레오는, 코코가: a Korean name carries its particle.
            if case .subject(let subject) = directory.lookup(key: stem) { return .subject(subject) }
        }
        // In a file of one subject, a word no subject answers to is the start of the text
        // (`Shed: complete`), not a name to report.
        if found == .unknown, fileSubject != nil { return .notAName }
        return found
    }

    /// False when no name has this many UTF-8 bytes (for words in NFC and lower case), with or
    /// without a particle of one or two syllables (3 or 6 bytes) after it.
    func mayName(byteCount: Int) -> Bool {
        [0, 3, 6].contains { byteCount > $0 && directory.mayHaveKey(ofByteCount: byteCount - $0) }
            || byteCount == fileSubject?.id.rawValue.utf8.count
    }

    /// Particles that follow a name at the start of a Korean sentence.
    private static let particles = ["은", "는", "이", "가", "도", "의", "랑", "이랑", "한테", "에게", "이는", "이가"]

    /// The word without a trailing particle, if it is Hangul and ends with one.
    static func stemWithoutParticle(_ word: String) -> String? {
        guard let last = word.unicodeScalars.last, (0xAC00...0xD7A3).contains(last.value) else { return nil }
        for particle in particles.sorted(by: { $0.count > $1.count }) where word.hasSuffix(particle) && word.count > particle.count {
            return String(word.dropLast(particle.count))
        }
        return nil
    }
}
