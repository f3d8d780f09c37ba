import DossierCore

/// A wide sheet's column found for one subject, with the unit its header wrote after the name
/// without a bracket (`Leo kg`), if it did.
struct SeriesColumn: Equatable, Sendable {
    let subject: Subject
    let unit: MeasurementUnit?
    let factor: Double
}
