import Foundation
import DossierCore

/// Puts a profile in its normal form: a pet's taxonomy through the species table, a child's
/// derived fields computed (and recomputed when made by older rules).
public struct ProfileNormaliser: Sendable {
    public let species: SpeciesTable

    public init(species: SpeciesTable) {
        self.species = species
    }

    /// With the library's species table (built in, plus its own additions).
    public init(layout: LibraryLayout) throws {
        self.init(species: try LibrarySpecies.table(for: layout))
    }

    /// Both steps, as `dossier subjects add` needs them.
    public func normalised(_ profile: SubjectProfile, today: RecordDate) -> SubjectProfile {
        ProfileNormaliser.derivingFields(of: normalisingTaxonomy(of: profile), today: today)
    }

    /// Trimmed names; a pet's class, species, subspecies and morph in their canonical form.
    public func normalisingTaxonomy(of profile: SubjectProfile) -> SubjectProfile {
        var profile = profile
        profile.name = profile.name.trimmedWhitespace
        profile.aliases = profile.aliases.map { $0.trimmedWhitespace }.filter { !$0.isEmpty }
        guard profile.subject.kind == .pets else { return profile }
        let normal = species.normalise(animalClass: profile.animalClass, species: profile.species,
                                       subspecies: profile.subspecies, morph: profile.morph)
        profile.animalClass = normal.animalClass
        profile.species = normal.species
        profile.subspecies = normal.subspecies
        profile.morph = normal.morph
        return profile
    }

    /// A child's derived fields from the birth date (a pet has none).
    public static func derivingFields(of profile: SubjectProfile, today: RecordDate) -> SubjectProfile {
        var profile = profile
        switch profile.subject.kind {
        case .pets:
            profile.derived = nil
        case .children:
            profile.derived = profile.born.flatMap { ChildDerivedFields.compute(birth: $0, asOf: today) }
        }
        return profile
    }
}
