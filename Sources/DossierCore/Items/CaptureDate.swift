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

    /// `2024-06-01T09:30:00+09:00`, or without the offset when it is not known (the index's
    /// `captured_at`, `--json`'s `taken`).
    public var iso8601: String { dateTime.iso8601 + (utcOffset?.description ?? "") }
}
