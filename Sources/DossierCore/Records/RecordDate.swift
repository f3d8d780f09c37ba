/// The date of a record: a calendar day, with a wall-clock time and a UTC offset only when the
/// source gave them. ISO 8601 in JSON: `2023-05-07`, `2023-05-14T15:30`, `2023-05-14T15:30+09:00`.
public struct RecordDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int?
    public let minute: Int?
    /// Minutes east of UTC, if the source said.
    public let utcOffsetMinutes: Int?

    /// The years a care record can have. A date outside them (`0000-01-01`, `9999-12-31`, a
    /// misread serial number) is a mistake to report, not a record to file: every importer holds
    /// dates to the same range, so a log and a CSV of the same events agree.
    public static let plausibleYears = 1900...2199

    public init?(year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int? = nil, utcOffsetMinutes: Int? = nil) {
        guard LocalDateTime(year: year, month: month, day: day, hour: hour ?? 0, minute: minute ?? 0) != nil,
              (hour == nil) == (minute == nil),
              utcOffsetMinutes.map({ abs($0) <= 18 * 60 }) ?? true, utcOffsetMinutes == nil || hour != nil
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.utcOffsetMinutes) = (hour, minute, utcOffsetMinutes)
    }

    /// Parses what `iso8601` writes.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10)
        else { return nil }
        if bytes.count == 10 {
            self.init(year: year, month: month, day: day)
            return
        }
        guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              let hour = number(11..<13), let minute = number(14..<16)
        else { return nil }
        if bytes.count == 16 {
            self.init(year: year, month: month, day: day, hour: hour, minute: minute)
            return
        }
        guard bytes.count == 22, bytes[16] == UInt8(ascii: "+") || bytes[16] == UInt8(ascii: "-"),
              bytes[19] == UInt8(ascii: ":"), let offsetHours = number(17..<19), let offsetMinutes = number(20..<22)
        else { return nil }
        let offset = (offsetHours * 60 + offsetMinutes) * (bytes[16] == UInt8(ascii: "-") ? -1 : 1)
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, utcOffsetMinutes: offset)
    }

    public var hasTime: Bool { hour != nil }

    /// The day alone.
    public var dayOnly: RecordDate { RecordDate(year: year, month: month, day: day)! }

    public var iso8601: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(22)
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `iso8601`'s bytes: records' lines and ids are made of them a million times over
    /// in a big import, without a string in between.
    public func appendISO8601(to out: inout [UInt8]) {
        ByteWriter.append(to: &out, bound: RecordDate.longestISO8601) { writeISO8601(to: &$0) }
    }

    /// `2023-05-14T15:30+09:00`: the longest form.
    static let longestISO8601 = 22

    /// Writes `iso8601`'s bytes. Every field is 0...99 or a year of 1...9999 (`init` makes sure),
    /// so two digits at a time.
    func writeISO8601(to writer: inout ByteWriter) {
        writer.writeTwoDigits(year / 100)
        writer.writeTwoDigits(year % 100)
        writer.write(UInt8(ascii: "-"))
        writer.writeTwoDigits(month)
        writer.write(UInt8(ascii: "-"))
        writer.writeTwoDigits(day)
        if let hour, let minute {
            writer.write(UInt8(ascii: "T"))
            writer.writeTwoDigits(hour)
            writer.write(UInt8(ascii: ":"))
            writer.writeTwoDigits(minute)
        }
        if let offset = utcOffsetMinutes {
            writer.write(UInt8(ascii: offset < 0 ? "-" : "+"))
            writer.writeTwoDigits(abs(offset) / 60)
            writer.write(UInt8(ascii: ":"))
            writer.writeTwoDigits(abs(offset) % 60)
        }
    }

    public var description: String { iso8601 }

    /// Days and times in calendar order; a day without a time sorts before that day's times.
    public static func < (lhs: RecordDate, rhs: RecordDate) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour ?? -1, lhs.minute ?? -1)
            < (rhs.year, rhs.month, rhs.day, rhs.hour ?? -1, rhs.minute ?? -1)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = RecordDate(iso8601: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
