import Foundation

/// A wall-clock date and time with no time zone, as cameras and notebooks record them.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int

    /// Nil unless every field is in range and the day exists in that month.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...LocalDateTime.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, min(second, 59))
    }

    /// Parses EXIF's `YYYY:MM:DD HH:MM:SS` (also with `-` in the date). Cameras write
    /// `0000:00:00 00:00:00` or blanks when the clock was never set: those give nil.
    public init?(exif text: String) {
        let digits = text.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        let fields = digits.split(whereSeparator: { ": -T".contains($0) }).compactMap { Int($0) }
        guard fields.count >= 5 else { return nil }
        self.init(year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4],
                  second: fields.count > 5 ? fields[5] : 0)
    }

    /// The wall-clock time of an instant in a time zone (the machine's, by default). Never fails:
    /// an instant whose wall clock could fall outside the years 1 to 9999 (a PNG's tIME of
    /// 9999-12-31 23:00 UTC read in +09:00, a movie header's time far in the future), that is one
    /// within days of either end or beyond it, gives that end: 0001-01-01T00:00:00 or
    /// 9999-12-31T23:59:59. Whoever dates something by a time read from a file checks that it is
    /// plausible (`CaptureDate.plausibleYears(seenAt:in:)`).
    public init(_ date: Date, in timeZone: TimeZone = .current) {
        let seconds = date.timeIntervalSince1970
        // A few days inside the ends, where no time zone's offset (nor the calendar's switch from
        // Julian to Gregorian) carries the wall clock over them; NaN compares false and is clamped too.
        guard seconds >= LocalDateTime.earliestConvertible else {
            self = LocalDateTime.earliest
            return
        }
        guard seconds <= LocalDateTime.latestConvertible else {
            self = LocalDateTime.latest
            return
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard let year = parts.year, let month = parts.month, let day = parts.day, let hour = parts.hour,
              let minute = parts.minute, let second = parts.second,
              let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else {
            self = seconds < 0 ? LocalDateTime.earliest : LocalDateTime.latest
            return
        }
        self = local
    }

    private static let earliest = LocalDateTime(year: 1, month: 1, day: 1)!
    private static let latest = LocalDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)!
    /// 0001-01-04T00:00:00Z and 9999-12-29T23:59:59Z, in seconds since 1970.
    private static let earliestConvertible: TimeInterval = -62_135_596_800 + 3 * 86_400
    private static let latestConvertible: TimeInterval = 253_402_300_799 - 2 * 86_400

    /// The instant this wall-clock time names in a time zone.
    public func date(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: parts) ?? Date(timeIntervalSince1970: 0)
    }

    /// Whether two wall clocks are at most `seconds` apart (a Live Photo's still and movie say
    /// they were taken within seconds of each other).
    public func isWithin(_ seconds: TimeInterval, of other: LocalDateTime) -> Bool {
        let utc = TimeZone(identifier: "UTC")!
        return abs(date(in: utc).timeIntervalSince(other.date(in: utc))) <= seconds
    }

    /// `2024-03-02_141503`: the date part of a filed photo's name.
    public var fileStamp: String {
        String(format: "%04d-%02d-%02d_%02d%02d%02d", year, month, day, hour, minute, second)
    }

    /// `2024-03-02T14:15:03`.
    public var iso8601: String {
        String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
    }

    public var description: String { iso8601 }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second)
            < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
