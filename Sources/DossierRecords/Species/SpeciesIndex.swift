/// The lookups behind `SpeciesTable`: every name by its key.
///
/// A Latin name outranks a common name or alias, so a keeper's alias can never take over
/// another species' Latin name. Two species with the same name at the same rank make that
/// name ambiguous, and it matches neither: guessing would file an animal under the wrong
/// species without anyone noticing.
struct SpeciesIndex: Sendable {
    /// Species names: key -> (entry, rank), rank 0 for the Latin name, 1 for other names.
    private var species: [String: [(entry: Int, rank: Int)]] = [:]
    /// Subspecies names across the table: key -> (entry, canonical subspecies, rank).
    private var subspecies: [String: [(entry: Int, name: String, rank: Int)]] = [:]
    /// Per entry: key of a subspecies name, epithet ("intermedia") or alias -> canonical name.
    private(set) var subspeciesByEntry: [[String: String]] = []
    /// Per entry: key of a morph name or alias -> canonical morph.
    private(set) var morphsByEntry: [[String: String]] = []

    init() {}

    /// Adds the names of `entry`, which is (or replaces, with more names) entry number `index`.
    mutating func add(_ entry: SpeciesEntry, at index: Int) {
        while subspeciesByEntry.count <= index {
            subspeciesByEntry.append([:])
            morphsByEntry.append([:])
        }
        for (position, name) in entry.names.enumerated() {
            addSpecies(SpeciesNameKey.key(name), entry: index, rank: position == 0 ? 0 : 1)
        }
        let speciesKey = SpeciesNameKey.key(entry.species)
        for name in entry.subspecies {
            let key = SpeciesNameKey.key(name)
            addSubspecies(key, entry: index, name: name, rank: 0)
            subspeciesByEntry[index][key] = subspeciesByEntry[index][key] ?? name
            if key.hasPrefix(speciesKey), key.count > speciesKey.count {
                let epithet = String(key.dropFirst(speciesKey.count))
                subspeciesByEntry[index][epithet] = subspeciesByEntry[index][epithet] ?? name
            }
            for alias in entry.subspeciesAliases[name] ?? [] {
                let aliasKey = SpeciesNameKey.key(alias)
                addSubspecies(aliasKey, entry: index, name: name, rank: 1)
                subspeciesByEntry[index][aliasKey] = subspeciesByEntry[index][aliasKey] ?? name
            }
        }
        for name in entry.morphs {
            for spelling in [name] + (entry.morphAliases[name] ?? []) {
                let key = SpeciesNameKey.key(spelling)
                morphsByEntry[index][key] = morphsByEntry[index][key] ?? name
            }
        }
    }

    /// The entry a species name (key) names, if exactly one does at the best rank.
    func entry(named key: String) -> Int? {
        best(species[key] ?? [], rank: { $0.rank }, identity: { "\($0.entry)" }).map { $0.entry }
    }

    /// The entry and canonical subspecies a subspecies name (key) names, if exactly one.
    func subspecies(named key: String) -> (entry: Int, name: String)? {
        best(subspecies[key] ?? [], rank: { $0.rank }, identity: { "\($0.entry) \($0.name)" }).map { ($0.entry, $0.name) }
    }

    // An entry merged with more names is added again: its old names are not listed twice.
    private mutating func addSpecies(_ key: String, entry: Int, rank: Int) {
        guard !key.isEmpty, !(species[key] ?? []).contains(where: { $0 == (entry, rank) }) else { return }
        species[key, default: []].append((entry, rank))
    }

    private mutating func addSubspecies(_ key: String, entry: Int, name: String, rank: Int) {
        guard !key.isEmpty, !(subspecies[key] ?? []).contains(where: { $0 == (entry, name, rank) }) else { return }
        subspecies[key, default: []].append((entry, name, rank))
    }

    /// The candidate of lowest rank, when all candidates of that rank name the same thing.
    private func best<Candidate>(_ candidates: [Candidate], rank: (Candidate) -> Int,
                                 identity: (Candidate) -> String) -> Candidate? {
        guard let lowest = candidates.map(rank).min() else { return nil }
        let top = candidates.filter { rank($0) == lowest }
        return Set(top.map(identity)).count == 1 ? top[0] : nil
    }
}
