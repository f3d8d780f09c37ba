import DossierCore
import Foundation

/// What a row's start and end say together: the minutes between them, or why they give none.
enum EntrySpan: Equatable {
    case minutes(Double)
    /// The end comes before the start (`14:00` to `13:00`): one of them is a typo.
    case endBeforeStart
    /// More than a week apart: no nap or feeding lasts that long; a shed's dates need no duration.
    case longerThanAWeek(days: Int)
    /// One of them has no time of day: a span of days, not minutes.
    case withoutTimes

    /// Wall-clock times with no offset are the library's zone's, so a nap across a clock change
    /// (01:30 to 03:30 on the night clocks spring forward) lasts the hour it really did.
    init(from start: RecordDate, to end: RecordDate, in zone: TimeZone) {
        guard start.hasTime, end.hasTime, let from = EntrySpan.instant(start, zone), let to = EntrySpan.instant(end, zone) else {
            let days = CivilDays.number(of: end) - CivilDays.number(of: start)
            self = days < 0 ? .endBeforeStart : days > 7 ? .longerThanAWeek(days: days) : .withoutTimes
            return
        }
        let minutes = (to.timeIntervalSince(from) / 60).rounded()
        if minutes <= 0 {
            self = minutes < 0 ? .endBeforeStart : .withoutTimes
        } else if minutes > 7 * 24 * 60 {
            self = .longerThanAWeek(days: Int((minutes / (24 * 60)).rounded()))
        } else {
            self = .minutes(minutes)
        }
    }

    private static func instant(_ date: RecordDate, _ zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = date.utcOffsetMinutes.flatMap { TimeZone(secondsFromGMT: $0 * 60) } ?? zone
        return calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day,
                                                  hour: date.hour, minute: date.minute ?? 0))
    }
}
