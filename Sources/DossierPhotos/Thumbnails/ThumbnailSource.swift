import DossierCore

/// What a filed file's thumbnail is made from, told by the extension it was filed under.
enum ThumbnailSource: Equatable, Sendable {
    /// A JPEG: decoded at a reduced scale (DCT scaling).
    case jpeg(path: String)
    /// A PNG: decoded whole by libpng.
    case png(path: String)
    /// What only libvips reads here (WebP, GIF): nil when libvips is not installed.
    case vips(path: String)
    /// A video: its poster frame, by ffmpeg where it is installed (else nil: the report shows an
    /// icon and its length).
    case video(path: String)
    /// Nothing to show as a picture: sound, a sidecar, a format no plugin registered.
    case none

    /// The source of the file filed at `path` (relative to the library) in `format`: the file itself
    /// where browsers show it, else its rendition beside it (a JPEG, or a PNG for a picture with alpha).
    static func of(_ path: String, format: PhotoFormat?, exists: (String) -> Bool) throws(ThumbnailError) -> ThumbnailSource {
        guard let format else { return .none }
        if format.isVideo { return .video(path: path) }
        if format.isAudio || format.isSidecar { return .none }
        if format.hasRendition {
            let jpeg = Filer.renditionPath(of: path, format, .jpeg)
            if exists(jpeg) { return .jpeg(path: jpeg) }
            let png = Filer.renditionPath(of: path, format, .png)
            if exists(png) { return .png(path: png) }
            throw .renditionMissing(path: path, rendition: jpeg)
        }
        switch format.fileExtension {
        case PhotoFormat.jpeg.fileExtension: return .jpeg(path: path)
        case PhotoFormat.png.fileExtension: return .png(path: path)
        default: return .vips(path: path)
        }
    }
}
