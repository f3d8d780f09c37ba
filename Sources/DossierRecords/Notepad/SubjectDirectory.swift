import DossierCore
import Foundation

/// The names a log may use for its subjects: each subject's id, name and aliases.
///
/// Names match ignoring case and Unicode normalisation: a log typed on a Mac may hold 레오 as
/// decomposed jamo while the profile has it precomposed. Swift's `String` equality and hashing
/// are canonical equivalence, so a key only needs its case folded.
///
/// A class: it is built once per run and read by every importer and every line, and a struct of
/// this many tables is copied (each table retained and released) wherever it is captured.
public final class SubjectDirectory: Sendable {
    private let subjects: [String: SubjectNameLookup]
    /// One spelling per key, in the order given, with its decomposed scalars for suggestions.
    private let spellings: [String]
    private let spellingScalars: [[UInt32]]
    /// Most words in one name: how far a line is read ahead for `Big Red: fed`.
    let longestNameWords: Int
    /// UTF-8 lengths of the keys in NFC: lets the line scanner skip building a String for a word
    /// that cannot be a name, which is most words on most lines.
    private let keyByteCounts: Set<Int>

    public init(entries: [(subject: Subject, names: [String])]) {
        var subjects: [String: SubjectNameLookup] = [:]
        var spellings: [String] = []
        var spellingScalars: [[UInt32]] = []
        var longestNameWords = 1
        var keyByteCounts: Set<Int> = []
        for (subject, names) in entries {
            for name in names {
                let key = SubjectDirectory.key(name)
                guard !key.isEmpty else { continue }
                switch subjects[key] {
                case nil:
                    subjects[key] = .subject(subject)
                    spellings.append(name.split(whereSeparator: \.isWhitespace).joined(separator: " "))
                    spellingScalars.append(SubjectDirectory.decomposed(key))
                    keyByteCounts.insert(key.precomposedStringWithCanonicalMapping.utf8.count)
                    longestNameWords = max(longestNameWords, key.split(separator: " ").count)
                case .subject(let other) where other != subject:
                    subjects[key] = .ambiguous([other, subject])
                case .ambiguous(let others) where !others.contains(subject):
                    subjects[key] = .ambiguous(others + [subject])
                default:
                    break
                }
            }
        }
        self.subjects = subjects
        self.spellings = spellings
        self.spellingScalars = spellingScalars
        self.longestNameWords = longestNameWords
        self.keyByteCounts = keyByteCounts
    }

    /// The subject answering to `name` exactly (ignoring case and normalisation); nil when none
    /// does or when two subjects share it.
    public func subject(named name: String) -> Subject? {
        if case .subject(let subject) = lookup(key: SubjectDirectory.key(name)) { return subject }
        return nil
    }

    /// Known names close to `name`, nearest first: within about two edits in five characters, so
    /// a typo finds its name but an unrelated name is never offered. Hangul is compared as
    /// decomposed jamo, so 레우 is one edit from 레오 rather than a whole syllable away.
    public func suggestions(for name: String, limit: Int = 3) -> [String] {
        let target = SubjectDirectory.decomposed(SubjectDirectory.key(name))
        guard !target.isEmpty, limit > 0 else { return [] }
        var scored: [(distance: Int, index: Int)] = []
        for (index, scalars) in spellingScalars.enumerated() {
            let allowed = max(1, max(target.count, scalars.count) * 2 / 5)
            guard abs(target.count - scalars.count) <= allowed else { continue }
            let distance = NameDistance.between(target, scalars, limit: allowed)
            if distance <= allowed { scored.append((distance, index)) }
        }
        scored.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
        return scored.prefix(limit).map { spellings[$0.index] }
    }

    public var isEmpty: Bool { subjects.isEmpty }

    func lookup(key: String) -> SubjectNameLookup { subjects[key] ?? .unknown }

    /// False when no key has this many UTF-8 bytes. Only meaningful for a word already in NFC
    /// and lower case, which ASCII and precomposed Hangul words are.
    func mayHaveKey(ofByteCount count: Int) -> Bool { keyByteCounts.contains(count) }

    /// Case folded, with runs of white space as one space.
    static func key(_ name: String) -> String {
        let words = name.split(whereSeparator: \.isWhitespace)
        return words.count == 1 ? words[0].lowercased() : words.joined(separator: " ").lowercased()
    }

    private static func decomposed(_ key: String) -> [UInt32] {
        key.decomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
    }
}
