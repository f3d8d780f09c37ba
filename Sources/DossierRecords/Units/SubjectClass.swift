import DossierCore

/// What a subject is, as far as what its measurements can be: a child, or an animal of one of
/// the species table's classes (reptile, amphibian, arthropod, mammal, bird, fish).
enum SubjectClass: Hashable, Sendable, CustomStringConvertible {
    case child
    /// A child under two years old on the record's date (the profile gives the birth date):
    /// the WHO standards' narrower bounds, so a 150 with no unit is no baby's weight in kg.
    case infant
    case animal(String)

    /// A child by its kind; a pet by the class its profile names, or its species' class in the
    /// built-in table; nil for a pet of no known class.
    init?(subject: Subject, profile: SubjectProfile?) {
        switch subject.kind {
        case .children:
            self = .child
        case .pets:
            let named = profile?.animalClass.flatMap { AnimalClassNames.canonical($0) }
            let bySpecies = profile?.species.flatMap { SpeciesTable.builtIn.match($0)?.entry.animalClass }
            guard let animalClass = named ?? bySpecies else { return nil }
            self = .animal(animalClass)
        }
    }

    var description: String {
        switch self {
        case .child: return "a child"
        case .infant: return "a child under two"
        case .animal(let animalClass): return animalClass.first.map { "aeiou".contains($0) } == true ? "an \(animalClass)" : "a \(animalClass)"
        }
    }
}
