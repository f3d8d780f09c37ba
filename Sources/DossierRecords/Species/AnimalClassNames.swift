/// The words keepers and apps use for the classes in the species table, in English, Latin and
/// Korean, mapped to the table's own: reptile, amphibian, arthropod, mammal, bird, fish.
/// ("Arthropod" is a phylum, not a class, but it is the picker heading keepers know for
/// tarantulas, scorpions, beetles and isopods, so insects and arachnids file under it.)
public enum AnimalClassNames {
    static let canonical: [String: String] = {
        let words: [String: [String]] = [
            "reptile": ["reptile", "reptiles", "reptilia", "파충류"],
            "amphibian": ["amphibian", "amphibians", "amphibia", "양서류"],
            "arthropod": ["arthropod", "arthropods", "arthropoda", "절지동물", "insect", "insects", "곤충",
                          "arachnid", "arachnids", "거미류"],
            "mammal": ["mammal", "mammals", "mammalia", "포유류", "small mammal", "small mammals", "소동물"],
            "bird": ["bird", "birds", "aves", "조류"],
            "fish": ["fish", "fishes", "어류", "물고기"],
        ]
        var table: [String: String] = [:]
        for (canonical, names) in words {
            for name in names { table[SpeciesNameKey.key(name)] = canonical }
        }
        return table
    }()

    /// The table's class for a known word, nil for anything else.
    public static func canonical(_ text: String) -> String? {
        canonical[SpeciesNameKey.key(text)]
    }
}
