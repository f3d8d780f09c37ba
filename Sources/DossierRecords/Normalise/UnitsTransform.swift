import DossierCore

/// Converts the quantities records were written with into measurements in g, cm, ml, min or count.
/// Registered after `ClassifyTransform` in the same stage: the kind settles what an ounce is.
public struct UnitsTransform: Transform {
    public let name = "units"
    public let summary = "quantities to measurements in g, cm, ml, min or count (kg, oz, lb, in, hours, 마리, 그램...)"
    public let stage = TransformStage.values

    public init() {}

    public func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        for index in batch.records.indices where !batch.records[index].quantities.isEmpty {
            let kind = batch.records[index].kind
            let converted = batch.records[index].quantities.compactMap { UnitConverter.measurement($0, kind: kind) }
            // Most records have no measurements yet: the converted array is taken as it is.
            if batch.records[index].measurements.isEmpty {
                batch.records[index].measurements = converted
            } else {
                batch.records[index].measurements += converted
            }
            batch.records[index].quantities = []
        }
    }
}
