/// Reads the taxonomy dictionaries that feed pickers in iOS apps (decoded from a property list):
///
///     [class: [species: [morph]]]
///     [class: [species: [subspecies: [morph]]]]
///
/// The two forms may be mixed, species by species. Classes and species come out in sorted
/// order (a dictionary has none), morphs in the order given. A class word the table knows is
/// made canonical ("Reptiles" -> "reptile"); species keep the app's spelling, which may be a
/// common name: `SpeciesTable.merging` files such an entry under the species that name belongs
/// to. Values of other shapes are read as leniently as makes sense (a lone string is one
/// morph, an array of species under a class is species without morphs); anything else is
/// skipped.
enum TaxonomyDictionary {
    static func entries(from dictionary: [String: Any]) -> [SpeciesEntry] {
        var entries: [SpeciesEntry] = []
        for (className, speciesValue) in dictionary.sorted(by: { $0.key < $1.key }) {
            guard let trimmedClass = SpeciesNameKey.trimmed(className) else { continue }
            let animalClass = AnimalClassNames.canonical(trimmedClass) ?? trimmedClass
            if let speciesByName = speciesValue as? [String: Any] {
                for (name, value) in speciesByName.sorted(by: { $0.key < $1.key }) {
                    guard let species = SpeciesNameKey.trimmed(name) else { continue }
                    entries.append(entry(animalClass: animalClass, species: species, value: value))
                }
            } else {
                for species in strings(speciesValue) {
                    entries.append(SpeciesEntry(animalClass: animalClass, species: species))
                }
            }
        }
        return entries
    }

    private static func entry(animalClass: String, species: String, value: Any) -> SpeciesEntry {
        var subspecies: [String] = []
        var morphs: [String] = []
        if let morphsBySubspecies = value as? [String: Any] {
            for (name, subspeciesMorphs) in morphsBySubspecies.sorted(by: { $0.key < $1.key }) {
                if let name = SpeciesNameKey.trimmed(name) { subspecies.append(name) }
                morphs += strings(subspeciesMorphs)
            }
        } else {
            morphs = strings(value)
        }
        return SpeciesEntry(animalClass: animalClass, species: species, subspecies: unique(subspecies), morphs: unique(morphs))
    }

    /// The strings in a value: itself if a string, the strings of an array.
    private static func strings(_ value: Any) -> [String] {
        if let text = value as? String { return SpeciesNameKey.trimmed(text).map { [$0] } ?? [] }
        if let array = value as? [Any] { return array.compactMap { ($0 as? String).flatMap(SpeciesNameKey.trimmed) } }
        return []
    }

    /// The first of each spelling (by key).
    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert(SpeciesNameKey.key($0)).inserted }
    }
}
