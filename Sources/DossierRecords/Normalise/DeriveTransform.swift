import DossierCore
import Foundation

/// Works out an imported child profile's derived fields (age, zodiac animal, star sign,
/// birthstone, lunar birthday, 100th day, first birthday) from the birth date.
public struct DeriveTransform: Transform {
    public let name = "derive"
    public let summary = "a child's age, zodiac, star sign, birthstone, lunar birthday, 100th day and first birthday"
    public let stage = TransformStage.derived

    public init() {}

    public func apply(to items: [Item], context: PipelineContext) throws -> [Item] {
        guard items.contains(where: { if case .custom(let item) = $0 { return item is SubjectProfileItem } else { return false } })
        else { return items }
        let today = RecordDate.today
        return items.map { item in
            guard case .custom(let custom) = item, var profileItem = custom as? SubjectProfileItem else { return item }
            profileItem.profile = ProfileNormaliser.derivingFields(of: profileItem.profile, today: today)
            return .custom(profileItem)
        }
    }
}
