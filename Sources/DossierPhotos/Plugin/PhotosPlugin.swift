import DossierCore

extension Plugin {
    /// Photos: JPEG, PNG and HEIF importers, the transform that turns them upright, and the one
    /// that files a rendition beside each HEIF; and the movies phones take beside them.
    public static let photos = photos(largePhoto: .standard)

    /// The photos plugin, with photos past `largePhoto`'s limits worked on through scratch files,
    /// and HEIF renditions as `renditions` says.
    public static func photos(largePhoto: LargePhoto, renditions: PhotoRenditions = .jpeg) -> Plugin {
        photoFormats(
            name: "photos",
            summary: "JPEG, PNG and HEIF photos, filed upright with their EXIF Orientation reset to 1; WebP, GIF, BMP, TIFF, "
                + "JPEG XL, raws, movies and sound filed as they are (with renditions where browsers need them); "
                + "sidecars beside their photos",
            // Every format the plugin files, one line each; sniffed in this order.
            handlers: [
                JPEGHandler(largePhoto: largePhoto),
                PNGHandler(largePhoto: largePhoto),
                HEIFHandler(largePhoto: largePhoto),
                MovieHandler(),
                // Raws before images: most raws are TIFF structures too.
                FiledAsItIsHandler.raws,
                FiledAsItIsHandler.images,
                FiledAsItIsHandler.videos,
                FiledAsItIsHandler.sounds,
                SidecarHandler(),
            ],
            renditions: renditions)
    }
}
