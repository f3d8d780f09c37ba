import DossierCore

/// What a CSV column holds, as told by its header.
public enum CSVColumnRole: Hashable, Sendable {
    /// A date, or a whole timestamp.
    case date
    /// When the entry ended (`End`, `Shed completed`): a shed is dated by it, and with a start it
    /// gives the entry's duration.
    case endDate
    /// A time of day belonging to the date column.
    case time
    /// The pet's or child's name.
    case subject
    /// The kind of entry (feeding, weight, ...), as the app called it.
    case kind
    /// What the kind column's entry is more precisely (`Method`: `Bottle`), kept on the record
    /// as its `subkind` field.
    case subKind
    case note
    /// A number; a cell's value times `factor` is in `unit`. `name` is the header without its unit.
    case measurement(name: String, unit: MeasurementUnit, factor: Double)
    /// A number whose header names what it measures but not in what unit (`Weight`, `체중`),
    /// or not even that (`Quantity`: `dimension` nil, what its row's kind measures): its unit is
    /// read from the cell, a unit column, the note, the library's settings or plausibility, and
    /// never assumed (`UnitSettler`).
    case unitlessMeasurement(name: String, dimension: MeasurementUnit?)
    /// The unit of the row's number in a unitless column (`Unit`, `단위`, or a column holding
    /// only units: `Extra data` = `lbs`).
    case unit
    /// A wide sheet's column for one subject (headed by its name or alias, `Leo` or `Leo (g)`):
    /// each number is a record of that subject, in `unit` times `factor` when the header says so.
    case series(subject: Subject, unit: MeasurementUnit?, factor: Double)
    /// Anything else, kept by its header.
    case text
}
