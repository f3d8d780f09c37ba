/// The photo formats Dossier files; the raw value is the filed file's extension.
public enum PhotoFormat: String, Sendable, Codable {
    case jpeg = "jpg"
    case png = "png"
    /// HEIF with HEVC pictures: what iPhones and most Android phones save.
    case heic = "heic"
    /// HEIF with AV1 pictures.
    case avif = "avif"

    public var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .heic: return "HEIC"
        case .avif: return "AVIF"
        }
    }

    /// Formats whose container carries the turn (HEIF's irot and imir): the file is filed as it
    /// is, and a rendition beside it shows it upright to programs that cannot read it.
    public var isHEIF: Bool { self == .heic || self == .avif }
}
