import DossierCore
import Foundation

/// Works out an imported child profile's derived fields (age, zodiac animal, star sign,
/// birthstone, lunar birthday, 100th day, first birthday) from the birth date.
public struct DeriveTransform: Transform {
    public let name = "derive"
    public let summary = "a child's age, zodiac, star sign, birthstone, lunar birthday, 100th day and first birthday"
    public let stage = TransformStage.derived

    public init() {}

    public func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        var today: RecordDate?
        batch.updateCustomItems(SubjectProfileItem.self) { item in
            let day = today ?? RecordDate.today(in: context.timeZone)
            today = day
            item.profile = ProfileNormaliser.derivingFields(of: item.profile, today: day)
        }
    }
}
