import DossierCore

/// What a CSV column holds, as told by its header.
public enum CSVColumnRole: Hashable, Sendable {
    /// A date, or a whole timestamp.
    case date
    /// A time of day belonging to the date column.
    case time
    /// The pet's or child's name.
    case subject
    /// The kind of entry (feeding, weight, ...), as the app called it.
    case kind
    case note
    /// A number; a cell's value times `factor` is in `unit`. `name` is the header without its unit.
    case measurement(name: String, unit: MeasurementUnit, factor: Double)
    /// Anything else, kept by its header.
    case text
}
