/// A record on its way through the pipeline: read, but not yet classified, converted or filed.
/// Transforms fill in what the source left open; the filer turns it into a `Record`.
public struct RecordDraft: Sendable, Equatable {
    public var source: RecordSource
    /// Set by the importer when the source names the subject (a name on the line, a CSV
    /// column); otherwise routing sets it from the file's path or --subject.
    public var subject: Subject?
    public var date: RecordDate
    /// Given by the source (a kind column, --kind, the file's name) or found by classification.
    public var kind: String?
    /// The words that say what happened, without date and name: what classification reads.
    /// Mostly a part of `text` (a log line's words after its date and name), so a substring of it:
    /// a string of its own would be one more allocation and copy for every record.
    public var body: Substring
    /// The entry as written.
    public var text: String
    /// Numbers with the unit words they were written with ("5 마리", "0.05 kg"), before conversion.
    public var quantities: [Quantity]
    public var measurements: [RecordMeasurement]
    public var fields: [String: String]

    public init(source: RecordSource, subject: Subject? = nil, date: RecordDate,
                kind: String? = nil, body: Substring, text: String, quantities: [Quantity] = [],
                measurements: [RecordMeasurement] = [], fields: [String: String] = [:]) {
        self.source = source
        self.subject = subject
        self.date = date
        self.kind = kind
        self.body = body
        self.text = text
        self.quantities = quantities
        self.measurements = measurements
        self.fields = fields
    }
}
