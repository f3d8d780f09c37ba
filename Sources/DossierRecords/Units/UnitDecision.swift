import DossierCore

/// How the unit of a number written without one was settled, or why it was not.
enum UnitDecision: Equatable, Sendable {
    /// Read in `unit` (as written, `kg`) because of `reason`; `measurement` is in the unit
    /// records keep.
    case settled(RecordMeasurement, unit: String, reason: Reason)
    /// No unit could be settled: the value is kept as text, and this is the problem.
    case unsettled(String)

    enum Reason: Hashable, Sendable {
        /// The cell wrote it (`8.2 oz` in a `Quantity` column), and the row's kind read it.
        case cell
        /// A unit column beside it on the row (`Quantity` + `Extra data`).
        case unitColumn(String)
        /// The row's note wrote the same number with its unit (`8.2 oz`).
        case note
        /// `config/records.json` names the unit for this key (a kind or a measurement's name).
        case configured(String)
        /// The only one of the metric units that puts it within the range for the subject's class.
        case plausible(SubjectClass, PlausibleRange)
    }
}
