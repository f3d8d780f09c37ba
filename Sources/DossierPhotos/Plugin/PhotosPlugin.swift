import DossierCore

extension Plugin {
    /// Photos: JPEG and PNG importers and the transform that turns them upright.
    public static let photos = photos(largePhoto: .standard)

    /// The photos plugin, with photos past `largePhoto`'s limits worked on through scratch files.
    public static func photos(largePhoto: LargePhoto) -> Plugin {
        Plugin(
            name: "photos",
            summary: "JPEG and PNG photos, filed upright with their EXIF Orientation reset to 1",
            importers: [JPEGImporter(largePhoto: largePhoto), PNGImporter(largePhoto: largePhoto)],
            transforms: [OrientTransform()]
        )
    }
}
