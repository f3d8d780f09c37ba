/// Why a photo could not be read or turned, in the words of the library that said so.
public enum PhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The decoder refused the data: corrupt, truncated or unsupported.
    case corrupt(format: String, message: String)
    /// The picture is larger than Dossier decodes (or claims to be).
    case tooLarge(format: String, message: String)
    /// The encoder failed, or memory ran out.
    case encodingFailed(format: String, message: String)
    /// The EXIF block could not be rewritten to fit (JPEG's APP1 holds at most 64 KiB).
    case exifTooLarge(size: Int)

    public var description: String {
        switch self {
        case .corrupt(let format, let message):
            return "\(format) data is corrupt or unsupported: \(message)"
        case .tooLarge(let format, let message):
            return "\(format) picture refused: \(message)"
        case .encodingFailed(let format, let message):
            return "could not write the upright \(format): \(message)"
        case .exifTooLarge(let size):
            return "the rewritten EXIF block is \(size) bytes, more than a JPEG APP1 segment holds (65533)"
        }
    }
}
