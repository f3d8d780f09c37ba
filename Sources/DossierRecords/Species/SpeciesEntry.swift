/// One species in the table keepers pick from: class, the Latin name that is its canonical
/// form, the names keepers actually write, and the subspecies and morphs (or localities) known
/// for it.
public struct SpeciesEntry: Codable, Hashable, Sendable {
    /// reptile, amphibian, arthropod, mammal, bird, fish (or a keeper's own).
    public var animalClass: String
    /// The canonical name: the Latin binomial, e.g. "Eublepharis macularius".
    public var species: String
    public var commonNames: LocalizedName?
    /// Other names in any language: nicknames (레게), older Latin names (Rhacodactylus ciliatus).
    public var aliases: [String]
    /// Canonical subspecies names, as trinomials ("Tiliqua scincoides intermedia").
    public var subspecies: [String]
    /// Canonical morph or locality names ("Mack Snow").
    public var morphs: [String]
    /// Other names of a subspecies, by its canonical name ("노던 블루텅" for T. s. intermedia).
    public var subspeciesAliases: [String: [String]]
    /// Other names of a morph, by its canonical name ("마크스노우" for "Mack Snow"): Korean
    /// keepers write morphs in Hangul, and one canonical spelling keeps them together.
    public var morphAliases: [String: [String]]

    public init(animalClass: String, species: String, commonNames: LocalizedName? = nil, aliases: [String] = [],
                subspecies: [String] = [], morphs: [String] = [], subspeciesAliases: [String: [String]] = [:],
                morphAliases: [String: [String]] = [:]) {
        self.animalClass = animalClass
        self.species = species
        self.commonNames = commonNames
        self.aliases = aliases
        self.subspecies = subspecies
        self.morphs = morphs
        self.subspeciesAliases = subspeciesAliases
        self.morphAliases = morphAliases
    }

    private enum CodingKeys: String, CodingKey {
        case animalClass, species, commonNames, aliases, subspecies, morphs, subspeciesAliases, morphAliases
    }

    /// Keepers write these files by hand too: every list may be left out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            animalClass: try container.decode(String.self, forKey: .animalClass),
            species: try container.decode(String.self, forKey: .species),
            commonNames: try container.decodeIfPresent(LocalizedName.self, forKey: .commonNames),
            aliases: try container.decodeIfPresent([String].self, forKey: .aliases) ?? [],
            subspecies: try container.decodeIfPresent([String].self, forKey: .subspecies) ?? [],
            morphs: try container.decodeIfPresent([String].self, forKey: .morphs) ?? [],
            subspeciesAliases: try container.decodeIfPresent([String: [String]].self, forKey: .subspeciesAliases) ?? [:],
            morphAliases: try container.decodeIfPresent([String: [String]].self, forKey: .morphAliases) ?? [:])
    }

    /// Leaves out what is empty, so a keeper's file stays as short as what they wrote.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(animalClass, forKey: .animalClass)
        try container.encode(species, forKey: .species)
        try container.encodeIfPresent(commonNames, forKey: .commonNames)
        if !aliases.isEmpty { try container.encode(aliases, forKey: .aliases) }
        if !subspecies.isEmpty { try container.encode(subspecies, forKey: .subspecies) }
        if !morphs.isEmpty { try container.encode(morphs, forKey: .morphs) }
        if !subspeciesAliases.isEmpty { try container.encode(subspeciesAliases, forKey: .subspeciesAliases) }
        if !morphAliases.isEmpty { try container.encode(morphAliases, forKey: .morphAliases) }
    }

    /// Every name this species goes by, canonical first.
    var names: [String] {
        [species] + (commonNames.map { [$0.ko, $0.en] } ?? []) + aliases
    }

    /// This entry with what `other` adds: its names (including its `species`, when that is not
    /// this entry's Latin name) as aliases, and subspecies, morphs and their aliases not yet
    /// here. A name already here under another spelling (same key) is not added again.
    func merged(with other: SpeciesEntry) -> SpeciesEntry {
        var result = self
        if result.animalClass.isEmpty { result.animalClass = other.animalClass }
        var known = Set(names.map(SpeciesNameKey.key))
        var otherNames = [other.species] + other.aliases
        if let theirs = other.commonNames {
            if result.commonNames == nil {
                result.commonNames = theirs
                known.formUnion([theirs.ko, theirs.en].map(SpeciesNameKey.key))
            } else {
                otherNames += [theirs.ko, theirs.en]
            }
        }
        for name in otherNames.compactMap(SpeciesNameKey.trimmed) {
            let key = SpeciesNameKey.key(name)
            if !key.isEmpty && known.insert(key).inserted { result.aliases.append(name) }
        }
        result.subspecies = Self.adding(other.subspecies, other.subspeciesAliases,
                                        to: result.subspecies, aliases: &result.subspeciesAliases)
        result.morphs = Self.adding(other.morphs, other.morphAliases, to: result.morphs, aliases: &result.morphAliases)
        return result
    }

    /// `names` plus those of `additions` that are new, with the aliases of both: an addition's
    /// aliases go to the name it matched. A name that has aliases counts as an addition even
    /// when it is not in `additions`.
    private static func adding(_ additions: [String], _ additionAliases: [String: [String]],
                               to names: [String], aliases: inout [String: [String]]) -> [String] {
        var names = names
        var canonicalByKey: [String: String] = [:]
        for name in names {
            canonicalByKey[SpeciesNameKey.key(name)] = canonicalByKey[SpeciesNameKey.key(name)] ?? name
            for alias in aliases[name] ?? [] where canonicalByKey[SpeciesNameKey.key(alias)] == nil {
                canonicalByKey[SpeciesNameKey.key(alias)] = name
            }
        }
        let aliasesByKey = Dictionary(additionAliases.map { (SpeciesNameKey.key($0.key), $0.value) }, uniquingKeysWith: +)
        for addition in (additions + additionAliases.keys.sorted()).compactMap(SpeciesNameKey.trimmed) {
            let key = SpeciesNameKey.key(addition)
            guard !key.isEmpty else { continue }
            let canonical: String
            if let known = canonicalByKey[key] {
                canonical = known
            } else {
                canonical = addition
                names.append(addition)
                canonicalByKey[key] = addition
            }
            for alias in (aliasesByKey[key] ?? []).compactMap(SpeciesNameKey.trimmed)
            where !SpeciesNameKey.key(alias).isEmpty && canonicalByKey[SpeciesNameKey.key(alias)] == nil {
                aliases[canonical, default: []].append(alias)
                canonicalByKey[SpeciesNameKey.key(alias)] = canonical
            }
        }
        return names
    }
}
