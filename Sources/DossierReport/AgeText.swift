import DossierCore

/// An age as people say it: days for a newborn, months for a baby, years and months after.
enum AgeText {
    static func of(born: RecordDate, on day: RecordDate) -> String? {
        guard CalendarDay(born) <= CalendarDay(day) else { return nil }
        let months = CalendarDay.months(from: born, to: day)
        if months < 1 {
            let days = CalendarDay(day) - CalendarDay(born)
            return days == 1 ? "1 day" : "\(days) days"
        }
        if months < 24 { return months == 1 ? "1 month" : "\(months) months" }
        let years = months / 12
        let rest = months % 12
        return "\(years) years" + (rest == 0 ? "" : rest == 1 ? " 1 month" : " \(rest) months")
    }
}
