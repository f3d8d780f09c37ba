import DossierCore

/// A family of formats filed byte for byte, as they are: recognised by their signatures, dated by
/// the EXIF block they carry (when they carry one), else by their own metadata (a CR3's boxes,
/// a container's `ContainerDates`), else by the file's name or time (`PhotoMetadata`'s
/// order), never turned (one whose EXIF says a turn keeps it, for viewers to apply). Those
/// browsers cannot show get a rendition beside them, upright; one whose rendition cannot be made
/// is filed all the same, and its outcome says why it has none. The images, raws, videos and
/// sounds beyond JPEG, PNG, HEIF and MP4/MOV are each one (`FiledAsItIsHandler.images`, `.raws`,
/// `.videos`, `.sounds`).
public struct FiledAsItIsHandler: PhotoFormatHandler {
    public let name: String
    public let summary: String
    public let formats: [PhotoFormat]
    /// The format of a file by its first bytes; nil when it is none of the family's.
    let recognise: @Sendable ([UInt8]) -> PhotoFormat?
    /// The EXIF block (a TIFF structure) in a file's bytes (all of them, or the first
    /// `metadataBytes` of a large one), when its format carries one.
    let exif: @Sendable (PhotoFormat, [UInt8]) -> [UInt8]?
    /// Dates the format's own metadata gives, after its EXIF's (a CR3's), from the bytes of the
    /// file searched for metadata.
    var ownDates: @Sendable (PhotoFormat, [UInt8]) -> [CaptureDate] = { _, _ in [] }
    /// The rendition of a photo of the family, when its format has one (`PhotoFormat.hasRendition`).
    var render: (@Sendable (Photo) throws -> PhotoRendition?)? = nil

    /// How much of a large file is searched for its metadata.
    static let metadataBytes = 8 << 20

    /// Its signature at the start, and not plain text after it (a log that starts `GIF89a notes`).
    public func canRead(head: [UInt8]) -> Bool {
        recognise(head) != nil && !FileTypeDescription.isPlainUTF8Text(head)
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        guard let format = recognise(input.head) else { return }
        try read(input, as: format, context: context, into: sink)
    }

    /// Reads the file as `format`, which its first bytes showed.
    func read(_ input: SourceInput, as format: PhotoFormat, context: PipelineContext, into sink: any ItemSink) throws {
        let (content, digest) = try WholeFileContent.read(input, context: context)
        let bytes: [UInt8]
        switch content {
        case .memory(let all): bytes = all
        case .file: bytes = WholeFileContent.prefix(content, FiledAsItIsHandler.metadataBytes)
        }
        // A raw whose first directory lies past the first bytes (a DNG written directory-last)
        // looked like a TIFF there: its directory, read now, tells it, and the raws read it.
        if format == .tiff, name != FiledAsItIsHandler.raws.name, let raw = FiledAsItIsHandler.rawFormat(head: bytes) {
            return try FiledAsItIsHandler.raws.read(input, as: raw, context: context, into: sink)
        }
        let container = ContainerDates.of(bytes, timeZone: context.timeZone)
        let metadata = PhotoMetadata(exif: exif(format, bytes), pngTime: nil,
                                     containerDates: ownDates(format, bytes) + container.dates,
                                     containerDatesThatAreNone: container.datesThatAreNone,
                                     source: input.source, timeZone: context.timeZone)
        var photo = Photo(source: input.source, format: format, content: content, sourceDigest: digest, orientation: .up,
                          width: 0, height: 0, captureDate: metadata.captureDate, exif: nil, isVerified: true,
                          warnings: metadata.warnings.filter { $0 != PhotoMetadata.unreadableExifWarning }, contentDigest: digest)
        if format.joinsItsStill {
            // A raw shot with a JPEG: the same rule as a Live Photo's movie's, its name and a time that agrees.
            photo.besideStill = LivePhotoPairing(context: context).stillPath(forMovie: input.source, identifier: nil,
                                                                            taken: photo.captureDate)
        }
        if let damage = FiledAsItIsHandler.cutShort(bytes, size: input.source.size) {
            // Still the user's bytes: filed as they are, and said.
            photo.damage = damage
            photo.warnings.append("damaged (\(damage)): filed byte for byte as it is")
        }
        try sink.accept(.photo(photo))
    }

    /// Why a file is cut short, where its own header says how long it is: a RIFF file (WebP, AVI,
    /// WAV) whose size field is past its end or that holds no chunk, a GIF with no trailer, a
    /// TIFF or TIFF-based raw whose image data runs past its end.
    static func cutShort(_ bytes: [UInt8], size: Int64) -> String? {
        if bytes.has("II") || bytes.has("MM"), let tiff = withTIFFMagic(bytes) {
            if let end = TIFFStructure(tiff)?.imageDataEnd(), Int64(end) > size {
                return "cut short: its image data runs to byte \(end), the file has \(size)"
            }
        }
        if bytes.starts(with: Array("RIFF".utf8)), bytes.count >= 12 {
            let declared = Int64(bytes[4]) | Int64(bytes[5]) << 8 | Int64(bytes[6]) << 16 | Int64(bytes[7]) << 24
            if declared + 8 > size { return "cut short: its RIFF header says \(declared + 8) bytes, the file has \(size)" }
            if size <= 12 { return "it holds no data, only its RIFF header" }
        }
        if bytes.starts(with: Array("GIF8".utf8)), Int64(bytes.count) == size, bytes.last != 0x3B {
            return "cut short: it does not end with a GIF trailer"
        }
        return nil
    }

    /// Filed byte for byte.
    public func upright(_ photo: Photo) -> Photo {
        photo
    }

    /// The rendition of a photo whose format has one; none for a damaged file (its damage is not
    /// made into new pixels), nor when it cannot be made: the photo is filed all the same, and
    /// its warnings say why it has none.
    public func rendition(of photo: Photo, warnings: inout [String]) throws -> PhotoRendition? {
        guard photo.format.hasRendition, let render else { return nil }
        if let damage = photo.damage {
            warnings.append("no rendition: it is damaged (\(damage))")
            return nil
        }
        do {
            return try render(photo)
        } catch {
            warnings.append("no rendition: \(error)")
            return nil
        }
    }
}
