import Foundation

extension RecordDate {
    /// Today on this machine's wall clock.
    public static var today: RecordDate {
        let now = LocalDateTime(Date())
        // A LocalDateTime is always a valid day.
        return RecordDate(year: now.year, month: now.month, day: now.day)!
    }
}
