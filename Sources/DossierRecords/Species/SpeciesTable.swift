import Foundation

/// The taxonomy keepers pick from (class, species, subspecies, morph), which they extend with
/// their own species and morphs. Every name a species goes by, in Korean, English or Latin,
/// leads to one canonical entry, so "레게", "Leopard Gecko" and "Eublepharis macularius" file
/// as the same animal.
public struct SpeciesTable: Sendable {
    /// One entry per species, in the order first given. Setting it builds the table anew, as
    /// `init(entries:)` does, so the lookups never go stale.
    public var entries: [SpeciesEntry] {
        get { stored }
        set { self = SpeciesTable(entries: newValue) }
    }

    private var stored: [SpeciesEntry]
    private var index: SpeciesIndex

    /// A seed of the species Korean keepers most often keep; see `BuiltInSpecies`.
    public static let builtIn = SpeciesTable(entries: BuiltInSpecies.entries)

    /// A table of `entries`. An entry whose species is already in the table by any of its
    /// names (its Latin name first) is merged into that one, as `merging` does; an entry with
    /// a blank species is left out.
    public init(entries: [SpeciesEntry]) {
        self.stored = []
        self.index = SpeciesIndex()
        for entry in entries { add(entry) }
    }

    /// This table with a keeper's additions: an addition for a species already here (same
    /// Latin name, or another name the table knows for exactly one species) adds its names,
    /// subspecies and morphs to that entry; any other addition is a new species.
    public func merging(_ additions: [SpeciesEntry]) -> SpeciesTable {
        var table = self
        for addition in additions { table.add(addition) }
        return table
    }

    /// The species (and subspecies and morph) a keeper's text names, or nil.
    ///
    /// Case, white space, hyphens and Unicode normal form do not matter. The text may be a
    /// species name (Latin, common or alias), a subspecies name, or one of those with a known
    /// subspecies and/or morph after it ("레오파드 게코 마크스노우") or a morph before it
    /// ("Mack Snow Leopard Gecko"). Nil for an unknown name, for a name two species share, and
    /// for a species followed by words that are not one of its known subspecies or morphs:
    /// `normalise` keeps such a morph as typed instead.
    public func match(_ text: String) -> SpeciesMatch? {
        find(SpeciesNameKey.key(text)).map { SpeciesMatch(entry: stored[$0.entry], subspecies: $0.subspecies, morph: $0.morph) }
    }

    /// Canonical values for what a keeper or an app filled in, where the table knows them;
    /// what it does not know is kept as given (without surrounding white space; blank is nil).
    ///
    /// A known species gives its Latin name and its class (the table's class wins over the
    /// given one, which is more often a slip); subspecies and morph are looked up among that
    /// species' own. A species text that also named a subspecies or morph fills those when
    /// they were not given. An unknown species keeps everything as given, except a class word
    /// the table knows ("파충류", "Reptiles" -> "reptile").
    public func normalise(animalClass: String?, species: String?, subspecies: String?, morph: String?)
        -> (animalClass: String?, species: String?, subspecies: String?, morph: String?) {
        let animalClass = SpeciesNameKey.trimmed(animalClass)
        let species = SpeciesNameKey.trimmed(species)
        let subspecies = SpeciesNameKey.trimmed(subspecies)
        let morph = SpeciesNameKey.trimmed(morph)
        guard let found = (species ?? subspecies).flatMap({ find(SpeciesNameKey.key($0)) }) else {
            return (animalClass.map { AnimalClassNames.canonical($0) ?? $0 }, species, subspecies, morph)
        }
        let entry = stored[found.entry]
        let canonicalSubspecies = subspecies.map { index.subspeciesByEntry[found.entry][SpeciesNameKey.key($0)] ?? $0 }
        let canonicalMorph = morph.map { index.morphsByEntry[found.entry][SpeciesNameKey.key($0)] ?? $0 }
        return (entry.animalClass, entry.species, canonicalSubspecies ?? found.subspecies, canonicalMorph ?? found.morph)
    }

    /// Reads a keeper's additions as `save` writes them: a JSON array of entries.
    public static func load(from url: URL) throws -> [SpeciesEntry] {
        try JSONDecoder().decode([SpeciesEntry].self, from: Data(contentsOf: url))
    }

    /// Writes a keeper's additions as a JSON array (pretty, keys sorted, so a hand edit or a
    /// version-control diff stays readable), replacing the file in one step.
    public static func save(_ entries: [SpeciesEntry], to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(entries).write(to: url, options: .atomic)
    }

    /// Entries from a picker's taxonomy dictionary, as iOS apps keep in property lists:
    /// `[class: [species: [morphs]]]`, where a species' value may also be a dictionary of
    /// subspecies -> [morphs]. See `TaxonomyDictionary`.
    public static func entries(fromTaxonomy dictionary: [String: Any]) -> [SpeciesEntry] {
        TaxonomyDictionary.entries(from: dictionary)
    }

    private mutating func add(_ addition: SpeciesEntry) {
        guard let species = SpeciesNameKey.trimmed(addition.species) else { return }
        var addition = addition
        addition.species = species
        let animalClass = SpeciesNameKey.trimmed(addition.animalClass) ?? ""
        addition.animalClass = AnimalClassNames.canonical(animalClass) ?? animalClass
        let existing = index.entry(named: SpeciesNameKey.key(species))
            ?? addition.commonNames.flatMap { names in
                index.entry(named: SpeciesNameKey.key(names.en)) ?? index.entry(named: SpeciesNameKey.key(names.ko))
            }
        if let existing {
            stored[existing] = stored[existing].merged(with: addition)
            index.add(stored[existing], at: existing)
        } else {
            stored.append(SpeciesEntry(animalClass: addition.animalClass, species: species).merged(with: addition))
            index.add(stored[stored.count - 1], at: stored.count - 1)
        }
    }

    /// What a name key names: entry number, canonical subspecies and morph.
    private typealias Found = (entry: Int, subspecies: String?, morph: String?)

    private func find(_ key: String) -> Found? {
        guard !key.isEmpty else { return nil }
        if let entry = index.entry(named: key) { return (entry, nil, nil) }
        if let found = index.subspecies(named: key) { return (found.entry, found.name, nil) }
        let splits = Array(key.indices.dropFirst())
        // A name then what follows it; the longest name first.
        for split in splits.reversed() {
            if let found = find(after: String(key[..<split]), rest: String(key[split...])) { return found }
        }
        // A morph then the name; the longest name first.
        for split in splits {
            if let found = find(before: String(key[split...]), morph: String(key[..<split])) { return found }
        }
        return nil
    }

    /// `rest` after the species or subspecies name `name`: a subspecies, a morph, or both.
    private func find(after name: String, rest: String) -> Found? {
        if let entry = index.entry(named: name) {
            let subspecies = index.subspeciesByEntry[entry]
            let morphs = index.morphsByEntry[entry]
            if let found = subspecies[rest] { return (entry, found, nil) }
            if let found = morphs[rest] { return (entry, nil, found) }
            for split in rest.indices.dropFirst() {
                if let sub = subspecies[String(rest[..<split])], let morph = morphs[String(rest[split...])] {
                    return (entry, sub, morph)
                }
            }
        }
        if let found = index.subspecies(named: name), let morph = index.morphsByEntry[found.entry][rest] {
            return (found.entry, found.name, morph)
        }
        return nil
    }

    /// A morph before the species or subspecies name `name`.
    private func find(before name: String, morph: String) -> Found? {
        if let entry = index.entry(named: name), let found = index.morphsByEntry[entry][morph] {
            return (entry, nil, found)
        }
        if let sub = index.subspecies(named: name), let found = index.morphsByEntry[sub.entry][morph] {
            return (sub.entry, sub.name, found)
        }
        return nil
    }
}
