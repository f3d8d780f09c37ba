/// The one place that says which file a photo's small picture is. Until the thumbnail cache
/// (`.dossier/thumbs/<sha256>-320.jpg`) is there, it is the picture itself (or its rendition),
/// loaded lazily; swapping in the cache changes this function only: `media.sha256` is the
/// filed photo's digest the cache names it by, so the body becomes
/// `media.sha256.map { ".dossier/thumbs/\($0)-320.jpg" } ?? media.shown` (once the report makes
/// the thumbnails it names).
enum ThumbnailChooser {
    /// The library-relative path of `media`'s thumbnail; nil when nothing a browser shows is filed.
    static func thumbnail(for media: FiledMedia) -> String? {
        media.shown
    }
}
