import DossierCore

/// Converts the quantities records were written with into measurements in g, cm, ml, min or count.
/// Registered after `ClassifyTransform` in the same stage: the kind settles what an ounce is.
public struct UnitsTransform: Transform {
    public let name = "units"
    public let summary = "quantities to measurements in g, cm, ml, min or count (kg, oz, lb, in, hours, 마리, 그램...)"
    public let stage = TransformStage.values

    public init() {}

    public func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        var resources: RecordImportResources?
        for index in batch.records.indices where !batch.records[index].quantities.isEmpty {
            let kind = batch.records[index].kind
            var converted: [RecordMeasurement] = []
            for quantity in batch.records[index].quantities {
                if let measurement = UnitConverter.measurement(quantity, kind: kind) {
                    converted.append(measurement)
                } else if let dimension = UnitConverter.unitlessDimension(quantity, kind: kind) {
                    // `체중 45`: grams or kilograms is for the library's settings, or plausibility, to say.
                    let settling = try resources ?? RecordImportResources.of(context)
                    resources = settling
                    if let measurement = UnitsTransform.settle(quantity, dimension: dimension, of: &batch.records[index],
                                                               resources: settling, problems: &batch.problems) {
                        converted.append(measurement)
                    }
                }
            }
            // Most records have no measurements yet: the converted array is taken as it is.
            if batch.records[index].measurements.isEmpty {
                batch.records[index].measurements = converted
            } else {
                batch.records[index].measurements += converted
            }
            batch.records[index].quantities = []
        }
    }

    /// The measurement a log's number with no unit gives, once its unit is settled; a guess by
    /// plausibility is reported, and a number no unit could be settled for is kept as text and
    /// reported. Reasons name no value or line, so a log's many weights are one problem.
    private static func settle(_ quantity: Quantity, dimension: MeasurementUnit, of record: inout RecordDraft,
                               resources: RecordImportResources, problems: inout [SourceProblem]) -> RecordMeasurement? {
        let name = record.kind ?? UnitSettler.what(dimension)
        let written = quantity.value == quantity.value.rounded() ? String(Int(quantity.value)) : String(quantity.value)
        let number = UnitlessMeasurement(header: "", name: name, dimension: dimension, value: quantity.value, written: written,
                                         describedAs: "the \(name)'s number")
        let subject = record.subject
        switch resources.unitSettler.settle(number, kind: record.kind, subject: subject,
                                            subjectClass: subject.flatMap { resources.subjectClass(of: $0, on: record.date) },
                                            unitCell: nil, note: nil) {
        case .settled(let measurement, let unit, .plausible(let subjectClass, let range)):
            problems.append(SourceProblem(line: record.source.line, reason: "a \(name) written with no unit was read as \(unit), the only "
                + "unit that makes it plausible for \(subjectClass) (\(UnitSettler.bounds(range, dimension)), \(range.source)); to be "
                + "sure, write its unit after the number, or name it in config/records.json ({\"units\": {\"\(name)\": \"\(unit)\"}})"))
            return measurement
        case .settled(let measurement, _, _):
            return measurement
        case .unsettled(let reason):
            record.fields[name] = written
            problems.append(SourceProblem(line: record.source.line, reason: reason))
            return nil
        }
    }
}
