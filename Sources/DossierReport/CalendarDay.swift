import DossierCore

/// A calendar day as a count of days since 1970-01-01: what "days since the last feeding", ages
/// in months and the intervals between sheds are counted in, with no time zone to get wrong
/// (a record's day is already the library's day).
struct CalendarDay: Hashable, Comparable, Sendable {
    let number: Int

    init(_ date: RecordDate) {
        self.init(year: date.year, month: date.month, day: date.day)
    }

    /// Howard Hinnant's days_from_civil.
    init(year: Int, month: Int, day: Int) {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        number = era * 146_097 + dayOfEra - 719_468
    }

    static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.number < rhs.number }

    static func - (lhs: CalendarDay, rhs: CalendarDay) -> Int { lhs.number - rhs.number }

    /// Whole months from `birth` to `date` (a month counts once its day of the month is reached),
    /// as WHO's monthly tables count age.
    static func months(from birth: RecordDate, to date: RecordDate) -> Int {
        var months = (date.year - birth.year) * 12 + (date.month - birth.month)
        if date.day < birth.day { months -= 1 }
        return months
    }

    /// Age in months with a fraction: days since birth over the mean month (365.25 / 12 days),
    /// where a point on a chart against age belongs.
    static func fractionalMonths(from birth: RecordDate, to date: RecordDate) -> Double {
        Double(CalendarDay(date) - CalendarDay(birth)) / (365.25 / 12)
    }
}
