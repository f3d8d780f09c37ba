import DossierCore

/// One dated line of a notepad log, before it is classified into a record.
public struct NotepadEntry: Sendable, Equatable {
    /// 1-based, as the writer's editor shows it.
    public let line: Int
    /// With hour and minute only when a time was written on the line (or on its section's header).
    public let date: RecordDate
    /// Named on the line or by the header it sits under; nil leaves the choice to the caller,
    /// which applies the file's subject or reports the line.
    public let subject: Subject?
    /// What remains after date, weekday, time, name and bullet: "귀뚜라미 5마리", "fed 2 pinkies".
    /// A substring of `text`.
    public let body: Substring
    /// The line as written, trimmed: what the record keeps, so nothing the parser dropped is lost.
    public let text: String

    public init(line: Int, date: RecordDate, subject: Subject?, body: Substring, text: String) {
        self.line = line
        self.date = date
        self.subject = subject
        self.body = body
        self.text = text
    }
}
