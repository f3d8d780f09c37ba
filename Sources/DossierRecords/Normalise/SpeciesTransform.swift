import DossierCore

/// Puts imported pet profiles' class, species, subspecies and morph in the canonical form of
/// the library's species table (Korean, English and Latin names, keepers' nicknames).
public struct SpeciesTransform: Transform {
    public let name = "species"
    public let summary = "pet taxonomy through the species table (aliases in Korean, English, Latin to one entry)"
    public let stage = TransformStage.values

    public init() {}

    public func apply(to items: [Item], context: PipelineContext) throws -> [Item] {
        guard items.contains(where: { if case .custom(let item) = $0 { return item is SubjectProfileItem } else { return false } })
        else { return items }
        let normaliser = try context.resources.value(ProfileNormaliser.self) { try ProfileNormaliser(layout: context.layout) }
        return items.map { item in
            guard case .custom(let custom) = item, var profileItem = custom as? SubjectProfileItem else { return item }
            profileItem.profile = normaliser.normalisingTaxonomy(of: profileItem.profile)
            return .custom(profileItem)
        }
    }
}
