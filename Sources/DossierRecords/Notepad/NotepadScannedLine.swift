/// The parts of one line as found by `NotepadLineScanner`, before any year or section is applied.
/// Ranges are byte offsets into the line's UTF-8.
struct NotepadScannedLine {
    /// The line without surrounding white space.
    var content: Range<Int>
    var date: NotepadWrittenDate?
    /// Set when a time was written, with or without a date.
    var hour: Int?
    var minute: Int?
    var name: NotepadNameMark?
    /// Empty for a header: a date or name with nothing else, or a decoration line.
    var body: Range<Int>
}
