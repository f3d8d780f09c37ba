import Foundation

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
