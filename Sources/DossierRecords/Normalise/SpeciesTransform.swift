import DossierCore

/// Puts imported pet profiles' class, species, subspecies and morph in the canonical form of
/// the library's species table (Korean, English and Latin names, keepers' nicknames).
public struct SpeciesTransform: Transform {
    public let name = "species"
    public let summary = "pet taxonomy through the species table (aliases in Korean, English, Latin to one entry)"
    public let stage = TransformStage.values

    public init() {}

    public func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        var normaliser: ProfileNormaliser?
        for index in batch.items.indices {
            guard case .custom(let custom) = batch.items[index], var profileItem = custom as? SubjectProfileItem else { continue }
            let table = try normaliser ?? context.resources.value(ProfileNormaliser.self) {
                try ProfileNormaliser(layout: context.layout)
            }
            normaliser = table
            profileItem.profile = table.normalisingTaxonomy(of: profileItem.profile)
            batch.items[index] = .custom(profileItem)
        }
    }
}
