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
