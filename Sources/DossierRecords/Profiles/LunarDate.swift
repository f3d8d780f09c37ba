/// A day in the Korean lunisolar calendar (음력), as parents write a lunar birthday.
///
/// `year` is the Gregorian year in which that lunar year began (lunar 2023-12-30 is in
/// January 2024), because that is how Korean calendars and parents write it, rather than
/// Foundation's 60-year cycle number. A leap month (윤달) repeats the number of the month
/// before it, so `isLeapMonth` tells 2023's 윤2월 from its ordinary 2월.
public struct LunarDate: Codable, Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let isLeapMonth: Bool

    public init(year: Int, month: Int, day: Int, isLeapMonth: Bool) {
        self.year = year
        self.month = month
        self.day = day
        self.isLeapMonth = isLeapMonth
    }

    /// `2023-02-01` or `2023-윤02-01`, the way Korean calendars print a lunar date.
    public var description: String {
        let month = month < 10 ? "0\(month)" : "\(month)"
        let day = day < 10 ? "0\(day)" : "\(day)"
        return "\(year)-\(isLeapMonth ? "윤" : "")\(month)-\(day)"
    }
}
