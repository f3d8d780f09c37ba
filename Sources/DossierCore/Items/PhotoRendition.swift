/// A picture filed beside a photo for programs that cannot read the photo's own format: a HEIC's
/// JPEG (or, with alpha, PNG), upright as displayed. Named after the photo, with its own extension.
public struct PhotoRendition: Sendable {
    public let format: PhotoFormat
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int

    public init(format: PhotoFormat, bytes: [UInt8], width: Int, height: Int) {
        self.format = format
        self.bytes = bytes
        self.width = width
        self.height = height
    }
}
