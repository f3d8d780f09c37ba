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

    public let dateTime: LocalDateTime
    public let origin: Origin

    public init(_ dateTime: LocalDateTime, origin: Origin) {
        self.dateTime = dateTime
        self.origin = origin
    }
}
