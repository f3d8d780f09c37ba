import Foundation

/// How far a wall clock was from UTC when a photo or movie was taken: EXIF's OffsetTimeOriginal
/// (`+09:00`), the end of QuickTime's creation date (`-0800`), or the library's time zone for a
/// time known as an instant (a movie header's UTC, a file's mtime). With it, a capture date
/// names an instant, so photos from two time zones order rightly; without it, only a wall clock.
public struct UTCOffset: Hashable, Sendable, CustomStringConvertible {
    public let minutes: Int

    /// Offsets within ISO 8601's ±18:00 (real time zones span -12:00 to +14:00).
    public init?(minutes: Int) {
        guard abs(minutes) <= 18 * 60 else { return nil }
        self.minutes = minutes
    }

    /// The offset of `timeZone` at `date`.
    public init(of timeZone: TimeZone, at date: Date) {
        // secondsFromGMT is within a day by Foundation's own limits.
        self.init(minutes: timeZone.secondsFromGMT(for: date) / 60)!
    }

    /// `Z`, `+HH:MM`, `+HHMM` or `+HH` (or `-`), nothing else, once spaces and NULs around it are
    /// trimmed. A camera that did not know its zone writes blanks or colons (`   :  `): nil.
    public init?(parsing text: some StringProtocol) {
        let trimmed = Array(text.utf8.drop { $0 == 0x20 || $0 == 0 }.reversed().drop { $0 == 0x20 || $0 == 0 }.reversed())
        if trimmed == [UInt8(ascii: "Z")] {
            self.init(minutes: 0)
            return
        }
        guard let sign = trimmed.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        var digits = Array(trimmed.dropFirst())
        if digits.count == 5, digits[2] == UInt8(ascii: ":") { digits.remove(at: 2) }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let number = { (from: Int) in Int(digits[from] - 0x30) * 10 + Int(digits[from + 1] - 0x30) }
        let (hours, minutes) = (number(0), digits.count == 4 ? number(2) : 0)
        guard minutes < 60 else { return nil }
        self.init(minutes: (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes))
    }

    /// `+09:00`, `-08:00`, `+00:00`.
    public var description: String {
        String(format: "%@%02d:%02d", minutes < 0 ? "-" : "+", abs(minutes) / 60, abs(minutes) % 60)
    }
}
