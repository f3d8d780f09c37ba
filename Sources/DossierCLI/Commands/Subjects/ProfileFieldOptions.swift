import ArgumentParser
import DossierCore
import DossierRecords

/// The profile fields `subjects add` and `subjects edit` both take, read and checked alike.
struct ProfileFieldOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Birth or hatch date, YYYY-MM-DD, with a time as YYYY-MM-DDTHH:MM (\(CommandSupport.dateYears)).",
                               valueName: "date"))
    var born: String?

    @Option(help: ArgumentHelp("male, female or unknown (also m/f, boy/girl, 수컷/암컷, ♂/♀, 1.0/0.1).", valueName: "sex"))
    var sex: String?

    @Option(name: .customLong("class"), help: ArgumentHelp("A pet's class: reptile, amphibian, arthropod, mammal...", valueName: "class"))
    var animalClass: String?

    @Option(help: "A pet's species, in any name the species table knows (레게, Leopard Gecko, Eublepharis macularius).")
    var species: String?

    @Option(help: "A pet's subspecies.")
    var subspecies: String?

    @Option(help: "A pet's morph or locality.")
    var morph: String?

    @Option(help: "Free notes.")
    var notes: String?

    /// Whether any field was given.
    var givesAny: Bool {
        [born, sex, animalClass, species, subspecies, morph, notes].contains { $0 != nil }
    }

    func validate() throws {
        if let born {
            guard let date = RecordDate(iso8601: born) else { throw ValidationError("--born: \(ProfileError.invalidDate(born))") }
            try CommandSupport.checkYear(of: date, option: "--born")
        }
        if let sex, Sex(reading: sex) == nil { throw ValidationError("--sex: \(ProfileError.invalidSex(sex))") }
    }

    /// Sets the fields that were given, each marked typed so an import leaves it (unless
    /// `--overwrite-profiles`); the others stay as they are.
    func apply(to profile: inout SubjectProfile) {
        if let born { profile.born = RecordDate(iso8601: born) }
        if let sex { profile.sex = Sex(reading: sex) }
        if let animalClass { profile.animalClass = animalClass }
        if let species { profile.species = species }
        if let subspecies { profile.subspecies = subspecies }
        if let morph { profile.morph = morph }
        if let notes { profile.notes = notes }
        let given: [(ProfileField, String?)] = [(.born, born), (.sex, sex), (.animalClass, animalClass), (.species, species),
                                                (.subspecies, subspecies), (.morph, morph), (.notes, notes)]
        profile.typed.formUnion(given.filter { $0.1 != nil }.map(\.0))
    }
}
