import DossierCore

extension Plugin {
    /// Photos: JPEG and PNG importers and the transform that turns them upright.
    public static let photos = Plugin(
        name: "photos",
        summary: "JPEG and PNG photos, filed upright with their EXIF Orientation reset to 1",
        importers: [JPEGImporter(), PNGImporter()],
        transforms: [OrientTransform()]
    )
}
