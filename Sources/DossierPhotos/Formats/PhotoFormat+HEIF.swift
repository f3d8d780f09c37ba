import DossierCore

extension PhotoFormat {
    /// HEIF with HEVC pictures: what iPhones and most Android phones save.
    public static let heic = PhotoFormat(fileExtension: "heic", displayName: "HEIC", isHEIF: true)
    /// HEIF with AV1 pictures.
    public static let avif = PhotoFormat(fileExtension: "avif", displayName: "AVIF", isHEIF: true)
}
