import DossierCore

extension Plugin {
    /// A plugin that files photos in the formats `handlers` handle: each handler is one of its
    /// importers (asked in this order), its photos are turned upright and given their renditions
    /// by it, and its formats are registered for Core to file them by. The photos plugin is one;
    /// a plugin of formats of its own is another, installed beside it.
    public static func photoFormats(name: String, summary: String, handlers: [any PhotoFormatHandler],
                                    renditions: PhotoRenditions = .jpeg) -> Plugin {
        Plugin(
            name: name,
            summary: summary,
            importers: handlers,
            // The rendition is made after the photo is upright (a HEIF's EXIF tag reset), so it
            // carries Orientation 1.
            transforms: [OrientTransform(handlers: handlers)]
                + (renditions == .none ? [] : [RenditionTransform(handlers: handlers)]),
            photoFormats: handlers.flatMap(\.formats))
    }
}
