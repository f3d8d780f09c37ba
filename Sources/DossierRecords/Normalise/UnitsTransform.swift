import DossierCore

/// Converts the quantities records were written with into measurements in g, cm, ml, min or count.
/// Registered after `ClassifyTransform` in the same stage: the kind settles what an ounce is.
public struct UnitsTransform: Transform {
    public let name = "units"
    public let summary = "quantities to measurements in g, cm, ml, min or count (kg, oz, lb, in, hours, 마리, 그램...)"
    public let stage = TransformStage.values

    public init() {}

    public func apply(to items: [Item], context: PipelineContext) throws -> [Item] {
        guard items.contains(where: { if case .record(let draft) = $0 { return !draft.quantities.isEmpty } else { return false } })
        else { return items }
        return items.map { item in
            guard case .record(var draft) = item, !draft.quantities.isEmpty else { return item }
            draft.measurements += draft.quantities.compactMap { UnitConverter.measurement($0, kind: draft.kind) }
            draft.quantities = []
            return .record(draft)
        }
    }
}
