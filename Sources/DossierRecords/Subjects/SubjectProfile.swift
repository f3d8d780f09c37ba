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

    public init(subject: Subject, name: String, aliases: [String] = [], born: RecordDate? = nil, sex: Sex? = nil,
                animalClass: String? = nil, species: String? = nil, subspecies: String? = nil, morph: String? = nil,
                notes: String? = nil, derived: ChildDerivedFields? = nil) {
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
    }

    /// The fields another profile of the same subject gives, laid over this one (an import
    /// updates what it knows and leaves the rest).
    public func updated(with other: SubjectProfile) -> SubjectProfile {
        var merged = self
        if !other.name.isEmpty { merged.name = other.name }
        for alias in other.aliases where !merged.aliases.contains(alias) { merged.aliases.append(alias) }
        merged.born = other.born ?? born
        merged.sex = other.sex ?? sex
        merged.animalClass = other.animalClass ?? animalClass
        merged.species = other.species ?? species
        merged.subspecies = other.subspecies ?? subspecies
        merged.morph = other.morph ?? morph
        merged.notes = other.notes ?? notes
        merged.derived = other.derived ?? derived
        return merged
    }

    enum CodingKeys: String, CodingKey {
        case kind, id, name, aliases, born, sex
        case animalClass = "class"
        case species, subspecies, morph, notes, derived
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
    }

    /// The profile as written to disk: pretty, keys sorted, so diffs of a library stay readable.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }
}
