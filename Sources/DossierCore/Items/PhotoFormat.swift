/// The photo formats Dossier files; the raw value is the filed file's extension.
public enum PhotoFormat: String, Sendable, Codable {
    case jpeg = "jpg"
    case png = "png"

    public var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        }
    }
}
