import Foundation

/// When a photo was taken, and which piece of metadata said so.
public struct CaptureDate: Hashable, Sendable {
    /// In order of trust: the first one present names the filed photo.
    public enum Origin: String, Sendable, Codable {
        case exifDateTimeOriginal
        case exifDateTime
        case pngTime
        /// A QuickTime movie's `com.apple.quicktime.creationdate` (local time with its offset).
        case quickTimeCreationDate
        /// A movie's `mvhd` creation time (UTC).
        case movieHeader
        case fileModificationTime
        /// When it was imported: nothing in or about the file gave a plausible date, and its
        /// outcome warns so.
        case importTime

        /// Whether the file wrote it as a wall clock (text), rather than as an instant.
        var isWallClock: Bool { self == .exifDateTimeOriginal || self == .exifDateTime || self == .quickTimeCreationDate }

        /// What a warning calls it.
        var described: String {
            switch self {
            case .exifDateTimeOriginal: "EXIF DateTimeOriginal"
            case .exifDateTime: "EXIF DateTime"
            case .pngTime: "PNG tIME"
            case .quickTimeCreationDate: "QuickTime creation date"
            case .movieHeader: "movie header's creation time"
            case .fileModificationTime: "file's modification time"
            case .importTime: "time it was imported"
            }
        }
    }

    /// The years a photo can be taken in: a record's (`RecordDate.plausibleYears`, 1900 to 2199),
    /// so a photo and a log of one day agree. A time outside them is a clock never set
    /// (`0001:01:01`), a misread field or a hostile file, and dates nothing.
    public static let plausibleYears = RecordDate.plausibleYears

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

    /// Whether its year is one a photo can be taken in.
    public var isPlausible: Bool { CaptureDate.plausibleYears.contains(dateTime.year) }

    /// The first plausible one of `candidates` (given in order of trust, the file's mtime last);
    /// when none is, the time of the import. A date passed over is a guess, and a guess is never
    /// silent: the warning says which dates were not used, and when none was, that the date is
    /// unknown.
    public static func mostTrusted(of candidates: [CaptureDate], importedAt now: Date, in timeZone: TimeZone)
        -> (date: CaptureDate, warnings: [String])
    {
        var passedOver: [String] = []
        for candidate in candidates {
            if candidate.isPlausible {
                guard !passedOver.isEmpty else { return (candidate, []) }
                return (candidate, ["\(outsideTheYears(passedOver)): dated by its \(candidate.origin.described)"])
            }
            // A wall clock read from the file is shown as written; an instant is not, as it may
            // have been held at an end on its way here (`LocalDateTime.init(_:in:)`,
            // `SourceFile.nanoseconds(of:)`) and would show a time the file does not hold.
            passedOver.append(candidate.origin.isWallClock
                ? "its \(candidate.origin.described) (\(candidate.dateTime.iso8601))" : "its \(candidate.origin.described)")
        }
        let imported = CaptureDate(now, in: timeZone, origin: .importTime)
        let why = passedOver.isEmpty ? "" : " (\(outsideTheYears(passedOver)))"
        return (imported, ["the date it was taken is unknown\(why): dated by the \(Origin.importTime.described), \(imported.iso8601)"])
    }

    /// `its EXIF DateTime (0001-01-01T00:00:00) and its file's modification time are outside the
    /// years 1900 to 2199`.
    private static func outsideTheYears(_ dates: [String]) -> String {
        let named = dates.count <= 1 ? dates.joined()
            : dates.dropLast().joined(separator: ", ") + " and " + dates[dates.count - 1]
        return "\(named) \(dates.count == 1 ? "is" : "are") outside the years \(plausibleYears.lowerBound) to \(plausibleYears.upperBound)"
    }

    /// `2024-06-01T09:30:00+09:00`, or without the offset when it is not known (the index's
    /// `captured_at`, `--json`'s `taken`).
    public var iso8601: String { dateTime.iso8601 + (utcOffset?.description ?? "") }
}
