/// A photo, video or sound of a subject as its page shows it: what a browser can show (the photo,
/// or the JPEG rendition beside a HEIC, TIFF or raw), the filed original when that is not it, and
/// a Live Photo's movie. Paths are relative to the library.
struct FiledMedia: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case photo
        case video
        case audio
    }

    let kind: Kind
    /// What a browser shows: a photo or its rendition, a video, a sound; nil for a picture no
    /// browser shows and filed without a rendition (`--renditions none`).
    let shown: String?
    /// The filed file, when it is not the one shown (a HEIC beside its rendition).
    let original: String?
    /// A Live Photo's movie, filed beside its still under the same name.
    let movie: String?
    /// `2024-03-02_141503`, from the filed name: the order of the timeline.
    let stamp: String
    /// The SHA-256 of the filed photo (the original, when a rendition is shown) or video, as the
    /// index knows it: what the thumbnail cache names its thumbnails by. Nil for a file the index
    /// does not know (filed by hand) and for sounds.
    var sha256: String? = nil
    /// Its thumbnail in the library's cache (`.dossier/thumbs/...`), once made: a photo's small
    /// picture, a video's poster frame.
    var thumbnail: String? = nil
    /// How long a video plays, in seconds, where its header says.
    var seconds: Double? = nil

    /// `2024-03`: the timeline's month.
    var month: String { String(stamp.prefix(7)) }

    /// The day it was taken, `2024-03-02`.
    var day: String { String(stamp.prefix(10)) }
}
