import DossierCore
import Foundation

/// What `<kind>/<id>/profile.json` holds: who the subject is. For a pet, the taxonomy a keeper
/// picks from (normalised through the species table); for a child, the fields the diary apps
/// showed next to the birth date, derived and stored with their rules version.
public struct SubjectProfile: Codable, Equatable, Sendable {
    public var subject: Subject
    public var name: String
    public var aliases: [String]
    /// Birth or hatch date, with a time if known.
    public var born: RecordDate?
    public var sex: Sex?
    public var animalClass: String?
    public var species: String?
    public var subspecies: String?
    /// Morph or locality.
    public var morph: String?
    public var notes: String?
    /// Children only.
    public var derived: ChildDerivedFields?
    /// The fields a person typed (`dossier subjects add`, `edit`): an import leaves them as they
    /// are unless told to overwrite them (`--overwrite-profiles`). A profile written before
    /// Dossier kept this list has every field it holds counted as typed (see `init(from:)`).
    public var typed: Set<ProfileField>

    public init(subject: Subject, name: String, aliases: [String] = [], born: RecordDate? = nil, sex: Sex? = nil,
                animalClass: String? = nil, species: String? = nil, subspecies: String? = nil, morph: String? = nil,
                notes: String? = nil, derived: ChildDerivedFields? = nil, typed: Set<ProfileField> = []) {
        self.subject = subject
        self.name = name
        self.aliases = aliases
        self.born = born
        self.sex = sex
        self.animalClass = animalClass
        self.species = species
        self.subspecies = subspecies
        self.morph = morph
        self.notes = notes
        self.derived = derived
        self.typed = typed
    }

    enum CodingKeys: String, CodingKey {
        case kind, id, name, aliases, born, sex
        case animalClass = "class"
        case species, subspecies, morph, notes, derived, typed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(SubjectKind.self, forKey: .kind)
        subject = Subject(kind: kind, id: try container.decode(SubjectID.self, forKey: .id))
        name = try container.decode(String.self, forKey: .name)
        aliases = try container.decodeIfPresent([String].self, forKey: .aliases) ?? []
        born = try container.decodeIfPresent(RecordDate.self, forKey: .born)
        sex = try container.decodeIfPresent(Sex.self, forKey: .sex)
        animalClass = try container.decodeIfPresent(String.self, forKey: .animalClass)
        species = try container.decodeIfPresent(String.self, forKey: .species)
        subspecies = try container.decodeIfPresent(String.self, forKey: .subspecies)
        morph = try container.decodeIfPresent(String.self, forKey: .morph)
        notes = try container.decodeIfPresent(String.self, forKey: .notes)
        derived = try container.decodeIfPresent(ChildDerivedFields.self, forKey: .derived)
        // A profile from before the list was kept cannot say who wrote its fields. Counted as
        // typed, an import never silently replaces what a person may have typed: it keeps each
        // field and says what it would have written, and `--overwrite-profiles` takes it.
        // A name this Dossier does not know (a later one's field) is passed over, not a broken profile.
        let typedNames = try container.decodeIfPresent([String].self, forKey: .typed)
        typed = typedNames.map { Set($0.compactMap(ProfileField.init(rawValue:))) } ?? Set(ProfileField.allCases)
        typed = typed.filter { $0.value(in: self) != nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subject.kind, forKey: .kind)
        try container.encode(subject.id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(aliases, forKey: .aliases)
        try container.encodeIfPresent(born, forKey: .born)
        try container.encodeIfPresent(sex, forKey: .sex)
        try container.encodeIfPresent(animalClass, forKey: .animalClass)
        try container.encodeIfPresent(species, forKey: .species)
        try container.encodeIfPresent(subspecies, forKey: .subspecies)
        try container.encodeIfPresent(morph, forKey: .morph)
        try container.encodeIfPresent(notes, forKey: .notes)
        try container.encodeIfPresent(derived, forKey: .derived)
        // Written even when empty: a profile without the list is one from before it was kept.
        try container.encode(typed.sorted(), forKey: .typed)
    }

    /// The profile as written to disk: pretty, keys sorted, so diffs of a library stay readable.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }
}

// MARK: - ProfileStore

/// Reads and writes subjects' `profile.json` files.
public struct ProfileStore: Sendable {
    public let layout: LibraryLayout

    public init(layout: LibraryLayout) {
        self.layout = layout
    }

    public func profile(of subject: Subject) throws -> SubjectProfile? {
        let path = layout.root.appendingPathComponent(layout.profilePath(for: subject)).path
        // Read through the library's own file system: a link standing at a profile's name is
        // never followed out of the library, and a folder there is no profile.
        switch try? layout.files.entryType(path) {
        case nil: return nil
        case .file?: break
        case .folder?: throw ProfileError.unreadable(path: path, reason: "a folder stands where it belongs")
        default: throw ProfileError.unreadable(path: path, reason: "a link or another kind of file stands where it belongs")
        }
        let bytes: [UInt8]
        do {
            bytes = try layout.files.readFile(path)
        } catch {
            throw ProfileError.unreadable(path: path, reason: "cannot be read: \(error)")
        }
        switch ProfileStore.read(bytes, of: subject) {
        case .success(let profile): return profile
        case .failure(let problem): throw ProfileError.unreadable(path: path, reason: problem.reason)
        }
    }

    /// Every subject with a folder, with its profile where it has one, sorted; and the profiles
    /// that cannot be read, so one damaged profile hides no other subject.
    public func allProfiles() -> (profiles: [(subject: Subject, profile: SubjectProfile?)], unreadable: [ProfileError]) {
        var profiles: [(subject: Subject, profile: SubjectProfile?)] = []
        var unreadable: [ProfileError] = []
        for subject in layout.existingSubjects().sorted() {
            do {
                profiles.append((subject, try profile(of: subject)))
            } catch let error as ProfileError {
                unreadable.append(error)
            } catch {
                unreadable.append(.unreadable(path: layout.profilePath(for: subject), reason: "\(error)"))
            }
        }
        return (profiles, unreadable)
    }

    /// Starts a damaged profile again, holding only what is certain (its subject, named by its
    /// id): the damaged bytes are kept under `damaged/`, whose path is returned. The library must
    /// be locked.
    public func startAgain(_ subject: Subject) throws -> String? {
        try FilingContext(layout: layout, dryRun: false).replaceDamagedFile(
            atRelativePath: layout.profilePath(for: subject),
            with: try SubjectProfile(subject: subject, name: subject.id.rawValue).encoded())
    }

    /// Why bytes are not `subject`'s profile, nil when they are (what `dossier verify` checks):
    /// a profile naming another subject would make this one answer to another's name.
    public static func problem(with bytes: [UInt8], of subject: Subject) -> String? {
        if case .failure(let problem) = read(bytes, of: subject) { return problem.reason }
        return nil
    }

    /// Why bytes are not a profile, in words.
    struct Problem: Error {
        let reason: String
    }

    /// `subject`'s profile from its bytes, or why they are not it.
    static func read(_ bytes: [UInt8], of subject: Subject) -> Result<SubjectProfile, Problem> {
        do {
            let profile = try JSONDecoder().decode(SubjectProfile.self, from: Data(bytes))
            guard profile.subject == subject else {
                return .failure(Problem(reason: "it is the profile of \(profile.subject.path), not of \(subject.path)"))
            }
            return .success(profile)
        } catch {
            return .failure(Problem(reason: reason(error)))
        }
    }

    /// Why bytes are not a profile, in a person's words rather than the decoder's.
    static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)? where context.codingPath.isEmpty:
            return "it is not JSON (cut short, or written over)"
        case .dataCorrupted(let context)?:
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is not what a profile holds there"
        case .keyNotFound(let key, _)?:
            return "it has no '\(key.stringValue)'"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return field.isEmpty ? "it is not a JSON object" : "'\(field)' is not what a profile holds there"
        default:
            return "\(error)"
        }
    }

    /// Writes a profile atomically (staged, fsynced, renamed). The library must be locked.
    public func save(_ profile: SubjectProfile, dryRun: Bool = false) throws {
        try FilingContext(layout: layout, dryRun: dryRun)
            .replaceFile(atRelativePath: layout.profilePath(for: profile.subject), with: try profile.encoded())
    }
}

// MARK: - ProfileField

/// A field of a profile that a person can type (`dossier subjects add`, `edit`) and an import can
/// give, named as `profile.json` names it. Aliases are not among them: an import only adds
/// aliases, never takes one away, so there is nothing typed for it to overrule.
public enum ProfileField: String, Codable, Sendable, CaseIterable, Comparable {
    case name, born, sex
    case animalClass = "class"
    case species, subspecies, morph, notes

    /// The field's value in a profile as a person reads it; nil when the profile has none.
    public func value(in profile: SubjectProfile) -> String? {
        switch self {
        case .name: return profile.name.isEmpty ? nil : profile.name
        case .born: return profile.born?.iso8601
        case .sex: return profile.sex?.rawValue
        case .animalClass: return profile.animalClass
        case .species: return profile.species
        case .subspecies: return profile.subspecies
        case .morph: return profile.morph
        case .notes: return profile.notes
        }
    }

    /// Sets the field in `profile` to what `other` holds.
    func copy(from other: SubjectProfile, into profile: inout SubjectProfile) {
        switch self {
        case .name: profile.name = other.name
        case .born: profile.born = other.born
        case .sex: profile.sex = other.sex
        case .animalClass: profile.animalClass = other.animalClass
        case .species: profile.species = other.species
        case .subspecies: profile.subspecies = other.subspecies
        case .morph: profile.morph = other.morph
        case .notes: profile.notes = other.notes
        }
    }

    /// The order of `profile.json`, so reports list fields the same way every time.
    public static func < (lhs: ProfileField, rhs: ProfileField) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

// MARK: - ProfileFields

/// Reads subject profiles from the loose key-value shapes apps and spreadsheets keep them in
/// (a plist dictionary, a CSV row): keys in English or Korean, dates as dates or text.
enum ProfileFields {
    enum Field: CaseIterable {
        case id, kind, name, aliases, born, sex, animalClass, species, subspecies, morph, notes
    }

    private static let aliases: [Field: [String]] = [
        .id: ["id", "identifier", "아이디"],
        .kind: ["kind", "type", "subjectkind", "종류", "구분"],
        .name: ["name", "이름", "nickname", "애칭"],
        .aliases: ["aliases", "alias", "별명", "별칭", "othernames"],
        .born: ["born", "birth", "birthday", "birthdate", "dateofbirth", "dob", "hatch", "hatched", "hatchdate",
                "hatchday", "생일", "생년월일", "출생일", "해칭일", "해칭"],
        .sex: ["sex", "gender", "성별", "암수"],
        .animalClass: ["class", "animalclass", "분류", "강"],
        .species: ["species", "종", "품종"],
        .subspecies: ["subspecies", "아종"],
        .morph: ["morph", "locality", "모프", "로컬", "로컬리티"],
        .notes: ["notes", "note", "memo", "메모", "비고"],
    ]

    /// The field a key names, ignoring case, spaces and punctuation.
    static func field(for key: String) -> Field? {
        let normal = String(key.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
        return aliases.first { $0.value.contains(normal) }?.key
    }

    /// A subject kind from how people write it.
    static func kind(_ text: String) -> SubjectKind? {
        switch text.lowercased().trimmedWhitespace {
        case "pet", "pets", "animal", "반려동물", "동물", "펫": return .pets
        case "child", "children", "kid", "baby", "아이", "아기", "자녀": return .children
        default: return nil
        }
    }

    /// A date written as ISO (`2024-02-10`, `2024-02-10T14:30`) or with dots or slashes in
    /// year-month-day order, or given as a plist date (an instant, taken in the library's time
    /// zone: one library gives one birthday on every machine).
    static func date(_ value: Any, timeZone: TimeZone) -> RecordDate? {
        if let date = value as? Date {
            // A birth time is kept, as the wall clock of the library's zone.
            let local = LocalDateTime(date, in: timeZone)
            return RecordDate(year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute)
        }
        guard let text = (value as? String)?.trimmedWhitespace else { return nil }
        if let iso = RecordDate(iso8601: text) { return iso }
        let parts = text.split(whereSeparator: { ".-/ 년월일".contains($0) }).compactMap { Int($0) }
        guard parts.count == 3, parts[0] > 31 else { return nil }
        return RecordDate(year: parts[0], month: parts[1], day: parts[2])
    }

    enum Failure: Error, Equatable, CustomStringConvertible {
        case missing(String)
        case invalid(String)

        var description: String {
            switch self {
            case .missing(let what): return "no \(what)"
            case .invalid(let what): return what
            }
        }
    }

    /// A profile from key-value pairs; `defaultKind` applies when none is given.
    static func profile(from values: [String: Any], defaultKind: SubjectKind?, timeZone: TimeZone) -> Result<SubjectProfile, Failure> {
        var byField: [Field: Any] = [:]
        for (key, value) in values {
            if let field = field(for: key), byField[field] == nil { byField[field] = value }
        }
        func text(_ field: Field) -> String? {
            guard let value = byField[field] else { return nil }
            let string = (value as? String) ?? (value as? NSNumber).map { "\($0)" }
            return string.flatMap { $0.trimmedWhitespace.isEmpty ? nil : $0.trimmedWhitespace }
        }
        guard let name = text(.name) else { return .failure(.missing("name")) }
        // An id may carry its kind (`pets/rex`); a species, class or morph is only a pet's.
        let qualified = text(.id).flatMap { try? Subject(parsing: $0) }
        let animalFields = [Field.species, .animalClass, .subspecies, .morph].contains { text($0) != nil }
        guard let kind = text(.kind).flatMap(ProfileFields.kind) ?? qualified?.kind ?? defaultKind ?? (animalFields ? .pets : nil) else {
            return .failure(.missing("kind for '\(name)' (pets or children)"))
        }
        guard let idText = qualified?.id.rawValue ?? text(.id) else { return .failure(.missing("id for '\(name)'")) }
        guard let id = try? SubjectID(idText) else {
            return .failure(.invalid("'\(idText)' is not a subject id: an id is \(SubjectID.rule)"))
        }
        var born: RecordDate?
        if let value = byField[.born] {
            guard let date = date(value, timeZone: timeZone) else { return .failure(.invalid("'\(value)' is not a birth date")) }
            born = date
        }
        var sex: Sex?
        if let sexText = text(.sex) {
            guard let read = Sex(reading: sexText) else { return .failure(.invalid("\(ProfileError.invalidSex(sexText))")) }
            sex = read
        }
        let aliasList: [String]
        if let array = byField[.aliases] as? [String] {
            aliasList = array
        } else {
            aliasList = text(.aliases)?.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "/" })
                .map { String($0).trimmedWhitespace } ?? []
        }
        return .success(SubjectProfile(subject: Subject(kind: kind, id: id), name: name, aliases: aliasList, born: born,
                                       sex: sex, animalClass: text(.animalClass), species: text(.species),
                                       subspecies: text(.subspecies), morph: text(.morph), notes: text(.notes)))
    }
}

// MARK: - ProfileColumns

/// A CSV header that describes subjects (id, name, born, species...) rather than dated records.
struct ProfileColumns {
    let header: [String]

    /// Nil unless the header has a name, an id, something only a subject has (a kind, a birth
    /// date, a sex, a species...) and no date column: then rows are profiles. A contact list
    /// (`id,name,email,phone`) is none.
    init?(header: [String]) {
        let fields = Set(header.compactMap(ProfileFields.field(for:)))
        guard fields.contains(.name), fields.contains(.id), !fields.subtracting([.name, .id, .aliases, .notes]).isEmpty,
              !CSVImporter.hasDateColumn(CSVColumns(header: header, decimalComma: false))
        else { return nil }
        self.header = header
    }

    func profile(from row: CSVRow) -> Result<SubjectProfile, NotepadProblem> {
        var values: [String: Any] = [:]
        for (key, value) in zip(header, row.fields) where !value.isEmpty { values[key] = value }
        // CSV dates are text, written as days: no zone applies (UTC stands for none).
        switch ProfileFields.profile(from: values, defaultKind: nil, timeZone: TimeZone(identifier: "UTC")!) {
        case .success(let profile): return .success(profile)
        case .failure(let failure): return .failure(NotepadProblem(line: row.line, reason: "not a profile: \(failure)"))
        }
    }
}
