/// A calendar day as a line wrote it: the year may be missing, to be taken from the lines before.
struct NotepadWrittenDate: Equatable {
    var year: Int?
    var month: Int
    var day: Int
    /// Byte range of the date in the line (weekday and time excluded), quoted in problems.
    var text: Range<Int>
    /// Written as a date but no such day exists (`2023-02-30`, `2월 30일`, `9999-12-31`): the
    /// line is reported, and its digits never become measurements.
    var impossible = false
    /// Day and month were put in order by `NotepadOptions.monthFirst` (`5/3`, `05/03/2024`), so
    /// an impossible one may be a log written the other way round.
    var orderFromOptions = false
}
