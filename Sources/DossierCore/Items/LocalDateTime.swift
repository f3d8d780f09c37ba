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

// MARK: - UTCOffset

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

// MARK: - CaptureDate

/// When a photo was taken, and which piece of metadata said so.
public struct CaptureDate: Hashable, Sendable {
    /// Where a date came from, in order of trust (docs/photos.md, "When a photo was taken"): the
    /// first plausible one present names the filed photo.
    public enum Origin: String, Sendable, Codable {
        case exifDateTimeOriginal
        /// When the picture was stored digitally (a scan's, or a camera's that wrote no original).
        case exifDateTimeDigitized
        /// XMP's `exif:DateTimeOriginal`, `xmp:CreateDate` and `photoshop:DateCreated`.
        case xmpDateTimeOriginal
        case xmpCreateDate
        case xmpPhotoshopDateCreated
        /// IPTC's DateCreated with its TimeCreated (APP13).
        case iptcDateCreated
        case exifDateTime
        case pngTime
        /// A QuickTime movie's `com.apple.quicktime.creationdate` (local time with its offset).
        case quickTimeCreationDate
        /// A movie's `mvhd` creation time (UTC).
        case movieHeader
        /// An MP3's ID3 recording time (`TDRC`, or `TYER`+`TDAT`+`TIME`).
        case id3RecordingTime
        /// A RIFF file's date: an AVI's `IDIT`, a WAV's broadcast origination date, `INFO`'s `ICRD`.
        case riffDate
        /// A Matroska or WebM file's `DateUTC` (an instant).
        case matroskaDate
        /// An AVCHD camcorder's recording date, in its H.264 stream's `MDPM` metadata (an MTS's).
        case avchdDate
        /// A date in the file's name (`IMG_20170101_010101.jpg`, `FileNameDate`).
        case fileName
        case fileModificationTime
        /// A sidecar's: the date of the photo it is filed beside.
        case itsPhoto
        /// When it was imported: nothing in or about the file gave a plausible date, and its
        /// outcome warns so.
        case importTime

        /// Whether the file wrote it as a wall clock (text), rather than as an instant.
        var isWallClock: Bool {
            switch self {
            case .pngTime, .movieHeader, .matroskaDate, .fileModificationTime, .importTime: false
            default: true
            }
        }

        /// What a warning calls it.
        public var described: String {
            switch self {
            case .exifDateTimeOriginal: "EXIF DateTimeOriginal"
            case .exifDateTimeDigitized: "EXIF DateTimeDigitized"
            case .xmpDateTimeOriginal: "XMP exif:DateTimeOriginal"
            case .xmpCreateDate: "XMP xmp:CreateDate"
            case .xmpPhotoshopDateCreated: "XMP photoshop:DateCreated"
            case .iptcDateCreated: "IPTC DateCreated"
            case .exifDateTime: "EXIF DateTime"
            case .pngTime: "PNG tIME"
            case .quickTimeCreationDate: "QuickTime creation date"
            case .movieHeader: "movie header's creation time"
            case .id3RecordingTime: "ID3 recording time"
            case .riffDate: "RIFF date"
            case .matroskaDate: "Matroska DateUTC"
            case .avchdDate: "AVCHD recording date"
            case .fileName: "file name's date"
            case .fileModificationTime: "file's modification time"
            case .itsPhoto: "photo's date"
            case .importTime: "time it was imported"
            }
        }

        /// Its name for programs (`--json`'s `date_from`, the index): the metadata group and tag
        /// as exiftool names them, or `filename`, `mtime`, `import-time`.
        public var name: String {
            switch self {
            case .exifDateTimeOriginal: "exif:DateTimeOriginal"
            case .exifDateTimeDigitized: "exif:DateTimeDigitized"
            case .xmpDateTimeOriginal: "xmp-exif:DateTimeOriginal"
            case .xmpCreateDate: "xmp:CreateDate"
            case .xmpPhotoshopDateCreated: "xmp-photoshop:DateCreated"
            case .iptcDateCreated: "iptc:DateCreated"
            case .exifDateTime: "exif:DateTime"
            case .pngTime: "png:tIME"
            case .quickTimeCreationDate: "quicktime:CreationDate"
            case .movieHeader: "quicktime:CreateDate"
            case .id3RecordingTime: "id3:RecordingTime"
            case .riffDate: "riff:DateTimeOriginal"
            case .matroskaDate: "matroska:DateUTC"
            case .avchdDate: "h264:DateTimeOriginal"
            case .fileName: "filename"
            case .fileModificationTime: "mtime"
            case .itsPhoto: "photo"
            case .importTime: "import-time"
            }
        }
    }

    /// How far apart a Live Photo's still and movie paired by their names may say they were
    /// taken: its movie starts about a second and a half before its still.
    public static let livePhotoWindow: TimeInterval = 5

    /// The first year a photo can have been taken in: the oldest surviving photograph's (1826).
    public static let firstPlausibleYear = 1826

    /// The years a photo or movie can have been taken in, seen from `now` in `timeZone`: from
    /// 1826 to next year (a camera's clock a little ahead). A time outside them is a clock
    /// never set (`0001:01:01`), a misread field or a hostile file (`9999-12-31`), and dates
    /// nothing: the next source decides, and the outcome says why.
    public static func plausibleYears(seenAt now: Date, in timeZone: TimeZone) -> ClosedRange<Int> {
        firstPlausibleYear...(LocalDateTime(now, in: timeZone).year + 1)
    }

    /// The wall clock where it was taken: what the filed name says.
    public let dateTime: LocalDateTime
    public let origin: Origin
    /// The wall clock's offset from UTC, when the metadata gives it or the time was an instant.
    public let utcOffset: UTCOffset?

    public init(_ dateTime: LocalDateTime, origin: Origin, utcOffset: UTCOffset? = nil) {
        self.dateTime = dateTime
        self.origin = origin
        self.utcOffset = utcOffset
    }

    /// An instant on the library's wall clock (a movie header's UTC time, a file's mtime).
    public init(_ date: Date, in timeZone: TimeZone, origin: Origin) {
        self.init(LocalDateTime(date, in: timeZone), origin: origin, utcOffset: UTCOffset(of: timeZone, at: date))
    }

    /// The first plausible one of `candidates` (given in order of trust, the file's mtime last);
    /// when none is, the time of the import. A date passed over is a guess, and a guess is never
    /// silent: the warning says which dates were not used, and when none was, that the date is
    /// unknown.
    public static func mostTrusted(of candidates: [CaptureDate], importedAt now: Date, in timeZone: TimeZone)
        -> (date: CaptureDate, warnings: [String])
    {
        let years = plausibleYears(seenAt: now, in: timeZone)
        var passedOver: [String] = []
        for candidate in candidates {
            if years.contains(candidate.dateTime.year) {
                guard !passedOver.isEmpty else { return (candidate, []) }
                return (candidate, ["\(outside(years, passedOver)): dated by its \(candidate.origin.described)"])
            }
            // A wall clock read from the file is shown as written; an instant is not, as it may
            // have been held at an end on its way here (`LocalDateTime.init(_:in:)`,
            // `SourceFile.nanoseconds(of:)`) and would show a time the file does not hold.
            passedOver.append(candidate.origin.isWallClock
                ? "its \(candidate.origin.described) (\(candidate.dateTime.iso8601))" : "its \(candidate.origin.described)")
        }
        let imported = CaptureDate(now, in: timeZone, origin: .importTime)
        let why = passedOver.isEmpty ? "" : " (\(outside(years, passedOver)))"
        return (imported, ["the date it was taken is unknown\(why): dated by the \(Origin.importTime.described), \(imported.iso8601)"])
    }

    /// `its EXIF DateTime (0001-01-01T00:00:00) and its file's modification time are outside the
    /// years 1826 to 2027`.
    private static func outside(_ years: ClosedRange<Int>, _ dates: [String]) -> String {
        let named = dates.count <= 1 ? dates.joined()
            : dates.dropLast().joined(separator: ", ") + " and " + dates[dates.count - 1]
        return "\(named) \(dates.count == 1 ? "is" : "are") outside the years \(years.lowerBound) to \(years.upperBound)"
    }

    /// Whether two dates are at most `seconds` apart: as instants when both know their offset
    /// from UTC (a still at 09:15+09:00 and a movie at 09:15-05:00 are 14 hours apart), else as
    /// wall clocks.
    public func isWithin(_ seconds: TimeInterval, of other: CaptureDate) -> Bool {
        guard let offset = utcOffset, let otherOffset = other.utcOffset,
              let zone = TimeZone(secondsFromGMT: offset.minutes * 60),
              let otherZone = TimeZone(secondsFromGMT: otherOffset.minutes * 60)
        else { return dateTime.isWithin(seconds, of: other.dateTime) }
        return abs(dateTime.date(in: zone).timeIntervalSince(other.dateTime.date(in: otherZone))) <= seconds
    }

    /// `2024-06-01T09:30:00+09:00`, or without the offset when it is not known (the index's
    /// `captured_at`, `--json`'s `taken`).
    public var iso8601: String { dateTime.iso8601 + (utcOffset?.description ?? "") }
}
