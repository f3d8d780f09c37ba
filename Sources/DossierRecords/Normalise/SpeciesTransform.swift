import DossierCore

/// Puts imported pet profiles' class, species, subspecies and morph in the canonical form of
/// the library's species table (Korean, English and Latin names, keepers' nicknames).
public struct SpeciesTransform: Transform {
    public let name = "species"
    public let summary = "pet taxonomy through the species table (aliases in Korean, English, Latin to one entry)"
    public let stage = TransformStage.values

    public init() {}

    public func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        try batch.updateCustomItems(SubjectProfileItem.self) { item in
            // Asked for only once a profile comes: loading the table reads the library's configuration.
            let normaliser = try context.resources.value(ProfileNormaliser.self) { try ProfileNormaliser(layout: context.layout) }
            item.profile = normaliser.normalisingTaxonomy(of: item.profile)
        }
    }
}
