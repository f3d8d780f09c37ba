/// The one place that says which file a photo's small picture is: its thumbnail from the
/// library's cache (`ThumbnailCache`, made by the report before its pages), else the picture
/// itself (or its rendition), loaded lazily.
enum ThumbnailChooser {
    /// The library-relative path of `media`'s thumbnail; nil when nothing a browser shows is filed.
    static func thumbnail(for media: FiledMedia) -> String? {
        media.thumbnail ?? media.shown
    }
}
