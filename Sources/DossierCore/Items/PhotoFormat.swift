/// The formats of what a camera roll holds that Dossier files: photos, and the movies phones take
/// beside them (filed byte for byte under `videos/`). The raw value is the filed file's extension.
public enum PhotoFormat: String, Sendable, Codable {
    case jpeg = "jpg"
    case png = "png"
    /// HEIF with HEVC pictures: what iPhones and most Android phones save.
    case heic = "heic"
    /// HEIF with AV1 pictures.
    case avif = "avif"
    /// QuickTime movies (iPhones, Live Photos' movies).
    case quickTime = "mov"
    /// MPEG-4 movies (Android phones, cameras).
    case mp4 = "mp4"
    /// Apple's MPEG-4 variant.
    case m4v = "m4v"
    /// 3GPP movies (older phones).
    case threeGP = "3gp"

    public var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .heic: return "HEIC"
        case .avif: return "AVIF"
        case .quickTime: return "QuickTime"
        case .mp4: return "MP4"
        case .m4v: return "M4V"
        case .threeGP: return "3GP"
        }
    }

    /// Movies: filed as they are, never turned or re-encoded.
    public var isVideo: Bool { [.quickTime, .mp4, .m4v, .threeGP].contains(self) }

    /// Formats whose container carries the turn (HEIF's irot and imir): the file is filed as it
    /// is, and a rendition beside it shows it upright to programs that cannot read it.
    public var isHEIF: Bool { self == .heic || self == .avif }
}
