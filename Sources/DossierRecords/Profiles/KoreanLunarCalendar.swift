import DossierCore
import Foundation

/// The Korean lunisolar calendar (음력) as Korean calendars print it.
///
/// Foundation on Linux has the Korean calendar as `Calendar.Identifier.dangi` (swift-foundation
/// added the identifier for 6.2; checked on Swift 6.3.1). It is not the Chinese calendar with a
/// Korean time zone: both start a month on the day of the new moon, but ICU's Chinese calendar
/// reckons that day at UTC+8 whatever the calendar's `timeZone` (with Asia/Seoul and with
/// Asia/Shanghai it gives the same lunar date for every day 1961-2100), while dangi reckons it
/// at UTC+9, Korean standard time. When a new moon falls between 23:00 and 24:00 in Beijing,
/// the month begins a day later in Korea: from 1961 to 2100 about one month in 23 starts on
/// another day (1,949 days carry another lunar date), and sometimes the leap month moves:
/// Korea had 윤3월 in 2012 and 윤5월 in 2017 where China had 闰四月 and 闰六月. Dangi gives the
/// leap month of a published Korean table in all 66 leap years 1900-2077 (Chinese differs in
/// 2012 and 2017), 2023's 윤2월 as 22 March to 19 April as Korean news reported it, and Seollal
/// 1988 on 18 February as the Korea Astronomy and Space Science Institute does (Chinese: 17
/// February). Dangi and Chinese also put Seollal on different days in 1966, 1997, 2027, 2028.
///
/// Only platforms that lack dangi (Apple systems before the 26 releases) fall back to the
/// Chinese calendar, with the differences above.
enum KoreanLunarCalendar {
    /// True where the real Korean calendar is in use (always on Linux).
    static let isDangi: Bool = {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return true }
        return false
    }()

    static let calendar: Calendar = {
        var calendar: Calendar
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            calendar = Calendar(identifier: .dangi)
        } else {
            calendar = Calendar(identifier: .chinese)
        }
        // Which civil day an instant is on: the birth date is a Korean civil date. A fixed
        // offset rather than Asia/Seoul so that a missing tz database cannot change the answer.
        calendar.timeZone = seoul
        return calendar
    }()

    static let seoul = TimeZone(secondsFromGMT: 9 * 3600)!

    /// The lunar date of a Gregorian day (its time, if any, is ignored).
    static func lunarDate(of day: RecordDate) -> LunarDate {
        let parts = components(of: day)
        guard parts.day >= 1 else {
            // ICU answers day 0 for a handful of far-future days (dangi: 2097-01-13). Day 0
            // is not a day; such a day is the one after the day before it.
            guard let dayBefore = CivilDays.adding(-1, to: day) else {
                return LunarDate(year: day.year, month: parts.month, day: 1, isLeapMonth: parts.isLeapMonth)
            }
            let previous = lunarDate(of: dayBefore)
            return LunarDate(year: previous.year, month: previous.month, day: previous.day + 1,
                             isLeapMonth: previous.isLeapMonth)
        }
        // Lunar months 11 and 12 that fall in January or February belong to the lunar year
        // that began in the Gregorian year before.
        let year = parts.month >= 11 && day.month <= 2 ? day.year - 1 : day.year
        return LunarDate(year: year, month: parts.month, day: parts.day, isLeapMonth: parts.isLeapMonth)
    }

    private static func components(of day: RecordDate) -> (month: Int, day: Int, isLeapMonth: Bool) {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = seoul
        // Noon, well away from either end of the day.
        let instant = gregorian.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
        let parts = calendar.dateComponents([.month, .day, .isLeapMonth], from: instant)
        return (parts.month ?? 1, parts.day ?? 1, parts.isLeapMonth ?? false)
    }
}
