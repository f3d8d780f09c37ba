import DossierCore

/// One cell of a wide sheet's subject column (`Datum,Leo,Rex`: Leo's weight that day): the
/// record it gives belongs to the column's subject.
struct CSVSeriesValue: Equatable, Sendable {
    let subject: Subject
    /// In the unit records keep, when the header said its unit (`Leo (g)`) or the cell did.
    var measurement: RecordMeasurement?
    /// When nothing on the row said its unit: settled by the importer.
    var unitless: UnitlessMeasurement?
    /// `Leo: 412`, the record's text when the row has no note.
    let text: String
}
