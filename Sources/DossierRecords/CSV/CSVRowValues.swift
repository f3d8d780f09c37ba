import DossierCore

/// What one CSV row says, read through its columns' roles. A cell that cannot be read is left out
/// and described in `problems`, so one bad cell does not cost the rest of the row.
public struct CSVRowValues: Equatable, Sendable {
    /// The row's first line in the file.
    public var line: Int
    public var date: RecordDate?
    /// From the end column, when the row has one.
    public var endDate: RecordDate?
    public var subjectName: String?
    public var kind: String?
    /// From the sub-kind column, kept as the record's `subkind` field.
    public var subKind: String?
    /// In the units records keep (g, cm, ml, min, count), named after their headers.
    public var measurements: [RecordMeasurement]
    /// Numbers in columns that do not say their unit, settled by the importer once it knows the
    /// row's kind and subject.
    var unitless: [UnitlessMeasurement] = []
    /// A wide sheet's numbers, one record each for its column's subject.
    var series: [CSVSeriesValue] = []
    /// The unit column's cell (`lbs`), for the row's unitless number.
    public var unitText: String?
    public var note: String?
    /// The non-empty cells of text columns, by header; cells past the header as "column N".
    public var fields: [String: String]
    /// E.g. "column 'Weight (kg)': 'abc' is not a number".
    public var problems: [String]

    public init(line: Int, date: RecordDate? = nil, subjectName: String? = nil, kind: String? = nil,
                measurements: [RecordMeasurement] = [], note: String? = nil, fields: [String: String] = [:],
                problems: [String] = []) {
        self.line = line
        self.date = date
        self.subjectName = subjectName
        self.kind = kind
        self.measurements = measurements
        self.note = note
        self.fields = fields
        self.problems = problems
    }

    /// The record these values draft, once the importer has the subject and the kind: the note
    /// is its text, or without one, the row as written (`rowText`, only made when needed). The
    /// values' strings and arrays move into the draft, not copied.
    consuming func draft(source: RecordSource, subject: Subject?, date: RecordDate, kind: String?,
                         rowText: @autoclosure () -> String) -> RecordDraft {
        if let subKind { fields["subkind"] = subKind }
        return RecordDraft(source: source, subject: subject, date: date, kind: kind, body: note?[...] ?? "",
                           text: note ?? rowText(), measurements: measurements, fields: fields)
    }
}
