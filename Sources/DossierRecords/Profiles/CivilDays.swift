import DossierCore

/// Day arithmetic on the proleptic Gregorian calendar, done with integers: adding 99 days or a
/// year to a birth date must not depend on a time zone or on Foundation's calendar, which
/// works on instants and could shift a day around a zone's historical offset changes.
enum CivilDays {
    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    static func number(of date: RecordDate) -> Int {
        let year = date.month <= 2 ? date.year - 1 : date.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5 + date.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `number(of:)` counted to; nil outside what RecordDate can hold (years 1...9999).
    static func date(number: Int) -> RecordDate? {
        let shifted = number + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return RecordDate(year: year, month: month, day: day)
    }

    /// The day `days` days after `date` (its time, if any, is dropped).
    static func adding(_ days: Int, to date: RecordDate) -> RecordDate? {
        self.date(number: number(of: date) + days)
    }

    /// The day a date recurs in `year`: 29 February falls back to 28 February in common years,
    /// the day Korean families keep such a birthday (it stays in the birth month).
    static func anniversary(of date: RecordDate, in year: Int) -> RecordDate? {
        RecordDate(year: year, month: date.month, day: min(date.day, daysIn(month: date.month, year: year)))
    }
}
