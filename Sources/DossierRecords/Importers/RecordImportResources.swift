import DossierCore
import Foundation

/// What every record importer needs, loaded once per run and shared: the library's keyword
/// table (its words are never names), its settings, the subjects' names, and what each subject
/// is (a child, a reptile...), which says what its unitless numbers can be.
struct RecordImportResources: Sendable {
    let keywords: KeywordTable
    let settings: RecordsSettings
    let directory: SubjectDirectory
    /// By the profiles as the run began; a subject with no profile, or a pet with no class or
    /// known species, has none.
    let subjectClasses: [Subject: SubjectClass]
    /// Children's birth dates, by their profiles: how old a child was on a record's date.
    let births: [Subject: RecordDate]

    /// What the subject was on `date`, as far as what its measurements can be.
    func subjectClass(of subject: Subject, on date: RecordDate) -> SubjectClass? {
        let known = subjectClasses[subject]
        guard known == .child, let born = births[subject] else { return known }
        let days = CivilDays.number(of: date) - CivilDays.number(of: born)
        return days >= 0 && days < 730 ? .infant : .child
    }

    var unitSettler: UnitSettler { UnitSettler(configured: settings.units) }

    static func of(_ context: PipelineContext) throws -> RecordImportResources {
        try context.resources.value(RecordImportResources.self) {
            let names = context.routing.names
            let profiles = ProfileStore(layout: context.layout)
            var classes: [Subject: SubjectClass] = [:]
            var births: [Subject: RecordDate] = [:]
            for subject in names.keys {
                // An unreadable profile only costs its subject's plausibility check, said per row.
                let profile = try? profiles.profile(of: subject)
                if let subjectClass = SubjectClass(subject: subject, profile: profile) { classes[subject] = subjectClass }
                if subject.kind == .children, let born = profile?.born { births[subject] = born }
            }
            return RecordImportResources(
                keywords: try KeywordTable.load(for: context.layout),
                settings: try RecordsSettings.load(for: context.layout),
                directory: SubjectDirectory(entries: names.sorted { $0.key < $1.key }
                    .map { (subject: $0.key, names: $0.value) }),
                subjectClasses: classes, births: births)
        }
    }
}

// MARK: - RecordsSettings

/// A library's settings for reading records, from `<library>/config/records.json`:
/// - `"monthFirst": false` reads 5/3 as 5 March (the default reads it as May 3), in notepad logs
///   and in CSV columns whose every date reads either way;
/// - `"units": {"weight": "kg", "feeding": "oz"}` names the unit of numbers written with none
///   (a `Weight` column of `8.3`), by the record's kind or the measurement's name (`weight`,
///   `length`, `amount`, `duration`). Without it, such a number takes the only unit that makes
///   it plausible for its subject, or is kept as text and reported.
public struct RecordsSettings: Codable, Sendable, Equatable {
    public var monthFirst: Bool
    public var units: [String: String]

    public init(monthFirst: Bool = true, units: [String: String] = [:]) {
        self.monthFirst = monthFirst
        self.units = units
    }

    private enum CodingKeys: String, CodingKey { case monthFirst, units }

    /// A key left out means its default: `{}` is a whole settings file. A unit nobody knows is
    /// refused here, so a typo never leaves numbers silently without one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        monthFirst = try container.decodeIfPresent(Bool.self, forKey: .monthFirst) ?? true
        units = try container.decodeIfPresent([String: String].self, forKey: .units) ?? [:]
        if let problem = RecordsSettings.problem(with: units) {
            throw DecodingError.dataCorruptedError(forKey: .units, in: container, debugDescription: problem)
        }
    }

    public static let configurationPath = "config/records.json"

    /// What is wrong with a `units` table, if anything: a unit nobody knows, one that does not
    /// measure what its key does (`"weight": "ml"`), a count word, or two keys that differ only
    /// in case (which one would win is chance).
    static func problem(with units: [String: String]) -> String? {
        let known = "use one of g, kg, lb, oz, cm, mm, m, in, ml, l, fl oz, min, h"
        var seen: [String: String] = [:]
        for (key, unit) in units.sorted(by: { $0.key < $1.key }) {
            if let other = seen[key.lowercased()] { return "'\(other)' and '\(key)' under 'units' name the same thing; keep one" }
            seen[key.lowercased()] = key
            let meanings = CSVHeaderVocabulary.meanings(of: unit).filter { $0.unit != .count }
            guard !meanings.isEmpty else { return "'\(unit)' (for '\(key)') is not a unit Dossier knows; \(known)" }
            let dimension = UnitSettler.dimension(ofKind: key.lowercased()) ?? UnitSettler.dimension(named: key.lowercased())
            if let dimension, !meanings.contains(where: { $0.unit == dimension }) {
                return "'\(unit)' (for '\(key)') does not measure a \(UnitSettler.what(dimension)); \(known)"
            }
        }
        return nil
    }

    public static func load(for layout: LibraryLayout) throws -> RecordsSettings {
        let url = layout.root.appendingPathComponent(configurationPath)
        guard FileManager.default.fileExists(atPath: url.path) else { return RecordsSettings() }
        do {
            return try JSONDecoder().decode(RecordsSettings.self, from: Data(contentsOf: url))
        } catch let DecodingError.dataCorrupted(context) {
            throw LibraryConfigurationError(path: url.path, reason: context.debugDescription)
        } catch DecodingError.typeMismatch(_, let context) {
            let place = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw LibraryConfigurationError(path: url.path, reason: "'\(place)' is not what it should be: "
                + #"{"monthFirst": true or false, "units": {"weight": "kg", ...}}"#)
        } catch {
            throw LibraryConfigurationError(path: url.path, reason: "\(error)")
        }
    }
}

// MARK: - TextSniffer

/// Tells text from binary by a file's first bytes. Text in an encoding Dossier cannot read still
/// counts as text: the importer then refuses it with the reason, instead of it being skipped as
/// an unknown file.
enum TextSniffer {
    static func isText(_ head: [UInt8]) -> Bool {
        guard !head.isEmpty, FileTypeDescription.binaryFormat(head: head) == nil else { return false }
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) { return true }
        // NUL and control bytes other than tab, LF, form feed and CR mean binary.
        return !head.contains { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) }
    }
}

// MARK: - SubjectDirectory

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
