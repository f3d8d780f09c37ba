import DossierCore

/// The movies phones take beside their photos, filed byte for byte under `videos/`.
extension PhotoFormat {
    /// QuickTime movies (iPhones, Live Photos' movies).
    public static let quickTime = PhotoFormat(fileExtension: "mov", displayName: "QuickTime", isVideo: true)
    /// MPEG-4 movies (Android phones, cameras).
    public static let mp4 = PhotoFormat(fileExtension: "mp4", displayName: "MP4", isVideo: true)
    /// Apple's MPEG-4 variant.
    public static let m4v = PhotoFormat(fileExtension: "m4v", displayName: "M4V", isVideo: true)
    /// 3GPP movies (older phones).
    public static let threeGP = PhotoFormat(fileExtension: "3gp", displayName: "3GP", isVideo: true)
}
