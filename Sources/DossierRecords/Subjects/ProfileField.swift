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
