/// A format Dossier files a photo or a movie in, as the plugin that reads it registers it
/// (`Plugin.photoFormats`). Core knows no format by name: what it needs to file one (where it
/// goes, what its file is called, whether a rendition lies beside it) is in the value itself.
public struct PhotoFormat: Hashable, Sendable {
    /// The filed file's extension, lower case, without the dot (`jpg`, `heic`, `mov`). Two formats
    /// filed under one extension would be one format to whoever reads the library: a registry
    /// refuses them (`PluginError.conflictingPhotoFormats`).
    public let fileExtension: String
    /// What a person calls it, in messages (`JPEG`, `HEIC`, `QuickTime`).
    public let displayName: String
    /// A movie: filed byte for byte under `videos/`, never turned or re-encoded.
    public let isVideo: Bool
    /// Sound alone (a voice memo, an M4A, an MP3): filed byte for byte under `audio/`.
    public let isAudio: Bool
    /// Its container carries the turn (as HEIF's irot and imir do): the file is filed as it is,
    /// and a rendition beside it shows it upright to programs that cannot read it.
    public let isHEIF: Bool
    /// Browsers cannot show it (a HEIF, a TIFF, a raw): filed as it is, with a rendition beside
    /// it, under its name, that they can. Every HEIF has one.
    public let hasRendition: Bool
    /// Shot beside a still of its name (a raw beside its camera's JPEG): filed beside it under its
    /// name when the two say they were taken at the same time, and brought beside it when the
    /// still comes later (`LivePhotoReunion`), as a Live Photo's movie is.
    public let joinsItsStill: Bool
    /// A sidecar (an iPhone's `.AAE` edits, an XMP file): filed byte for byte beside its photo,
    /// under its name, and never a photo of its own (nor taken for a rendition).
    public let isSidecar: Bool

    public init(fileExtension: String, displayName: String, isVideo: Bool = false, isAudio: Bool = false,
                isHEIF: Bool = false, hasRendition: Bool = false, joinsItsStill: Bool = false, isSidecar: Bool = false) {
        self.fileExtension = fileExtension
        self.displayName = displayName
        self.isVideo = isVideo
        self.isAudio = isAudio
        self.isHEIF = isHEIF
        self.hasRendition = hasRendition || isHEIF
        self.joinsItsStill = joinsItsStill
        self.isSidecar = isSidecar
    }

    /// A still browsers show (a JPEG, a PNG): what a file under a rendition's name beside a photo
    /// that has one may be.
    public var isRenditionFormat: Bool { !isVideo && !isAudio && !hasRendition && !isSidecar }

    /// The folder of a subject it is filed under: `photos`, `videos` or `audio`.
    public var folder: String { isVideo ? "videos" : isAudio ? "audio" : "photos" }
}
