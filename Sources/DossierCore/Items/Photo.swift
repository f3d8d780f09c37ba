/// A photo passing through the pipeline: its bytes and what was read from them.
public struct Photo: Sendable {
    public let source: SourceFile
    public var format: PhotoFormat
    /// The bytes to file. Importers hand over the source's bytes; the orient transform replaces
    /// them with upright ones.
    public var content: PhotoContent {
        didSet { knownContentDigest = nil }
    }
    /// The digest of `content` as its importer took it while reading the bytes, until a
    /// transform replaces them.
    private var knownContentDigest: ContentDigest?
    /// SHA-256 of `content`: the digest its importer gave with the bytes (a file filed as it is
    /// is hashed once, as it is read, not again at each step that names it), else, and once a
    /// transform has replaced them, hashed when asked.
    public var contentDigest: ContentDigest { knownContentDigest ?? content.digest }
    /// SHA-256 of the source's bytes, for deduplication of what was already imported.
    public let sourceDigest: ContentDigest
    /// How the pixels in `content` must be turned to look right; `.up` once turned.
    public var orientation: Orientation
    public var width: Int
    public var height: Int
    public var captureDate: CaptureDate
    /// The raw EXIF block (a TIFF structure, without the JPEG `Exif\0\0` prefix) if there is one;
    /// kept so that transforms can rewrite it.
    public var exif: [UInt8]?
    /// Set by the transform that proved the data whole (a full decode or entropy decode).
    public var isVerified: Bool
    public var warnings: [String]
    /// Filed beside the photo when its format needs one (HEIF); made by the rendition transform.
    public var rendition: PhotoRendition?
    /// A movie's turn as players apply it (its track matrix, degrees clockwise); nil for photos.
    public var rotation: Int?
    /// A motion photo: a photo that carries a short video inside it (Google, Samsung), kept.
    public var isMotionPhoto = false
    /// For a Live Photo's movie, a raw shot with a JPEG, or a sidecar (`.AAE`, `.xmp`): where its
    /// photo is filed, relative to the subject's folder (`photos/2024/2024-01-12_213853_1ad773a0.heic`).
    /// It is filed beside it under the same name (`...1ad773a0.mov`, `...1ad773a0.cr2`,
    /// `...1ad773a0.aae`), so they stay together and viewers find them.
    public var besideStill: String?
    /// For a movie or raw with `besideStill`: its still is among this run's sources, and is filed
    /// in it too. Otherwise the still was filed before, and the movie takes its name only in the
    /// subject whose folder holds it; in another subject's (a clip shared into a sibling's or a
    /// pet's folder) it is a video of its own (`Filer`).
    public var stillIsInRun = false
    /// What is wrong with a photo filed as it is because it is damaged but still decodes (a JPEG
    /// whose data ends early): the decoder's warning. `--json` says `"damaged": true`.
    public var damage: String?
    /// Its bytes are not a lossless transform of its source's: its pixels were decoded and
    /// encoded again (a JPEG turn the MCUs did not allow losslessly, a damaged picture turned).
    /// Under `--originals lossy` the source's bytes are kept under `originals/`.
    public var filedLossily = false
    /// Apple's content identifier (a Live Photo's still in its maker note, its movie in its
    /// QuickTime metadata), kept in the index so the two find each other in any order.
    public var contentIdentifier: String?
    /// Set by routing; nil until then.
    public var subject: Subject?

    /// `contentDigest`: the SHA-256 of `content`, when the importer took it as it read the bytes
    /// (the source's own, for an importer that hands the source's bytes over); else nil.
    public init(source: SourceFile, format: PhotoFormat, content: PhotoContent, sourceDigest: ContentDigest,
                orientation: Orientation, width: Int, height: Int, captureDate: CaptureDate,
                exif: [UInt8]?, isVerified: Bool = false, warnings: [String] = [], contentDigest: ContentDigest? = nil) {
        self.source = source
        self.format = format
        self.content = content
        knownContentDigest = contentDigest
        self.sourceDigest = sourceDigest
        self.orientation = orientation
        self.width = width
        self.height = height
        self.captureDate = captureDate
        self.exif = exif
        self.isVerified = isVerified
        self.warnings = warnings
        rendition = nil
        rotation = nil
        subject = nil
    }
}

// MARK: - PhotoContent

/// Where a photo's bytes are while it passes through the pipeline.
public enum PhotoContent: Sendable {
    /// In memory: every photo of everyday size.
    case memory([UInt8])
    /// In a scratch file: a photo too large to hold in memory (its source file, or its pixels
    /// once decoded), which the codecs read and write a part at a time.
    case file(ScratchFile)

    public var size: Int64 {
        switch self {
        case .memory(let bytes): Int64(bytes.count)
        case .file(let file): file.size
        }
    }

    /// SHA-256 of the bytes.
    public var digest: ContentDigest {
        switch self {
        case .memory(let bytes): ContentDigest(of: bytes)
        case .file(let file): file.digest
        }
    }
}

// MARK: - Orientation

/// The EXIF Orientation tag: how the stored pixels must be turned to show the picture upright.
public enum Orientation: Int, CaseIterable, Sendable, Codable {
    case up = 1
    case mirrored = 2
    case down = 3
    case mirroredDown = 4
    /// Mirrored left-right, then turned 270 degrees clockwise (a transpose).
    case mirroredLeft = 5
    /// Turn 90 degrees clockwise to show upright.
    case left = 6
    /// Mirrored left-right, then turned 90 degrees clockwise (a transverse).
    case mirroredRight = 7
    /// Turn 270 degrees clockwise to show upright.
    case right = 8

    /// Reads a tag value the way viewers do: 0 and values out of range count as upright.
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .up
    }

    /// Whether turning upright swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}
