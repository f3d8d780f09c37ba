/// A calendar day as a line wrote it: the year may be missing, to be taken from the lines before.
struct NotepadWrittenDate: Equatable {
    var year: Int?
    var month: Int
    var day: Int
    /// Byte range of the date in the line (weekday and time excluded), quoted in problems.
    var text: Range<Int>
}
