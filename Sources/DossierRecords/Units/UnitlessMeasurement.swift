import DossierCore

/// A number an export wrote with no unit anywhere on its row (`Weight` = `8.3`), before its unit
/// is settled: by the library's `config/records.json`, or by the only unit that makes it
/// plausible for its subject, or not at all (then it is kept as text and reported).
struct UnitlessMeasurement: Equatable, Sendable {
    /// The column it stood in, as headed.
    let header: String
    /// The measurement's name (the header without its unit): `Weight`.
    let name: String
    /// What it measures (the unit records keep: g, cm, ml, min); nil for a `Quantity` or `Value`
    /// column, which measures what its row's kind does.
    let dimension: MeasurementUnit?
    let value: Double
    /// The cell as written, kept as the record's text field when no unit can be settled.
    let written: String
    /// A unit the cell wrote that only the row's kind can read (`8.2 oz` in a `Quantity`
    /// column: fluid ounces of a feeding, ounces of a weight).
    var writtenUnit: String? = nil
    /// How messages name it: `'45' in column 'Weight'`; a log's `a weight` (the same words for
    /// every line, so a log's many are reported as one problem).
    var describedAs: String? = nil

    var described: String { describedAs ?? "'\(written)' in column '\(header)'" }
}
