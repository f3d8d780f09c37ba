/// The one place that says which file a photo's small picture is. Until the thumbnail cache
/// (`.dossier/thumbs/<sha256>-320.jpg`) is there, it is the picture itself (or its rendition),
/// loaded lazily; swapping in the cache changes this function only.
enum ThumbnailChooser {
    /// The library-relative path of `media`'s thumbnail; nil when nothing a browser shows is filed.
    static func thumbnail(for media: FiledMedia) -> String? {
        media.shown
    }
}
