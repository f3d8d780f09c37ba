import Foundation

extension RecordDate {
    /// Today on the wall clock of a time zone (a library's: `LibraryTimeZone`).
    public static func today(in timeZone: TimeZone) -> RecordDate {
        let now = LocalDateTime(Date(), in: timeZone)
        // A LocalDateTime is always a valid day.
        return RecordDate(year: now.year, month: now.month, day: now.day)!
    }
}
