import DossierCore

/// The images, raws, videos and sounds filed byte for byte, as they are: none is turned. Those
/// browsers cannot show (TIFF, BMP, JPEG XL, raws) have a rendition beside them.
extension PhotoFormat {
    public static let webp = PhotoFormat(fileExtension: "webp", displayName: "WebP")
    /// Animated ones kept whole.
    public static let gif = PhotoFormat(fileExtension: "gif", displayName: "GIF")
    public static let bmp = PhotoFormat(fileExtension: "bmp", displayName: "BMP", hasRendition: true)
    /// Scanners' TIFFs.
    public static let tiff = PhotoFormat(fileExtension: "tif", displayName: "TIFF", hasRendition: true)
    public static let jxl = PhotoFormat(fileExtension: "jxl", displayName: "JPEG XL", hasRendition: true)

    /// Camera raws, by maker.
    public static let dng = PhotoFormat(fileExtension: "dng", displayName: "DNG raw", hasRendition: true, joinsItsStill: true)
    public static let cr2 = PhotoFormat(fileExtension: "cr2", displayName: "Canon CR2 raw", hasRendition: true, joinsItsStill: true)
    public static let cr3 = PhotoFormat(fileExtension: "cr3", displayName: "Canon CR3 raw", hasRendition: true, joinsItsStill: true)
    public static let nef = PhotoFormat(fileExtension: "nef", displayName: "Nikon NEF raw", hasRendition: true, joinsItsStill: true)
    public static let arw = PhotoFormat(fileExtension: "arw", displayName: "Sony ARW raw", hasRendition: true, joinsItsStill: true)
    public static let orf = PhotoFormat(fileExtension: "orf", displayName: "Olympus ORF raw", hasRendition: true, joinsItsStill: true)
    public static let rw2 = PhotoFormat(fileExtension: "rw2", displayName: "Panasonic RW2 raw", hasRendition: true, joinsItsStill: true)
    public static let raf = PhotoFormat(fileExtension: "raf", displayName: "Fujifilm RAF raw", hasRendition: true, joinsItsStill: true)

    /// Camcorders' and older cameras' videos.
    public static let avi = PhotoFormat(fileExtension: "avi", displayName: "AVI", isVideo: true)
    public static let mkv = PhotoFormat(fileExtension: "mkv", displayName: "Matroska", isVideo: true)
    public static let webm = PhotoFormat(fileExtension: "webm", displayName: "WebM", isVideo: true)
    public static let mts = PhotoFormat(fileExtension: "mts", displayName: "MPEG transport stream (AVCHD)", isVideo: true)

    /// Sound: voice memos, recordings, messages.
    public static let m4a = PhotoFormat(fileExtension: "m4a", displayName: "M4A audio", isAudio: true)
    public static let mp3 = PhotoFormat(fileExtension: "mp3", displayName: "MP3 audio", isAudio: true)
    public static let wav = PhotoFormat(fileExtension: "wav", displayName: "WAV audio", isAudio: true)
    public static let aac = PhotoFormat(fileExtension: "aac", displayName: "AAC audio", isAudio: true)
    public static let ogg = PhotoFormat(fileExtension: "ogg", displayName: "Ogg audio (Opus, Vorbis)", isAudio: true)
    public static let flac = PhotoFormat(fileExtension: "flac", displayName: "FLAC audio", isAudio: true)
}
