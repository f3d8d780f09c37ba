import DossierCore

/// A family of formats filed byte for byte, as they are: recognised by their signatures, dated by
/// the EXIF block they carry (when they carry one), else by their container's own date
/// (`ContainerDates`), else by the file's name or time
/// (`PhotoMetadata`'s order), never turned (one whose EXIF says a turn keeps it, for viewers to
/// apply). The images, raws, videos and sounds beyond JPEG, PNG, HEIF and MP4/MOV are each one
/// (`FiledAsItIsHandler.images`, `.raws`, `.videos`, `.sounds`).
public struct FiledAsItIsHandler: PhotoFormatHandler {
    public let name: String
    public let summary: String
    public let formats: [PhotoFormat]
    /// The format of a file by its first bytes; nil when it is none of the family's.
    let recognise: @Sendable ([UInt8]) -> PhotoFormat?
    /// The EXIF block (a TIFF structure) in a file's bytes (all of them, or the first
    /// `metadataBytes` of a large one), when its format carries one.
    let exif: @Sendable (PhotoFormat, [UInt8]) -> [UInt8]?
    /// What the outcome says of a file of the format (no rendition is made yet, say).
    let note: @Sendable (PhotoFormat) -> String?

    /// How much of a large file is searched for its metadata.
    static let metadataBytes = 8 << 20

    /// Its signature at the start, and not plain text after it (a log that starts `GIF89a notes`).
    public func canRead(head: [UInt8]) -> Bool {
        recognise(head) != nil && !FileTypeDescription.isPlainUTF8Text(head)
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        guard let format = recognise(input.head) else { return }
        let (content, digest) = try WholeFileContent.read(input, context: context)
        let bytes: [UInt8]
        switch content {
        case .memory(let all): bytes = all
        case .file: bytes = WholeFileContent.prefix(content, FiledAsItIsHandler.metadataBytes)
        }
        let metadata = PhotoMetadata(exif: exif(format, bytes), pngTime: nil,
                                     containerDates: ContainerDates.of(bytes, timeZone: context.timeZone),
                                     source: input.source, timeZone: context.timeZone)
        var photo = Photo(source: input.source, format: format, content: content, sourceDigest: digest, orientation: .up,
                          width: 0, height: 0, captureDate: metadata.captureDate, exif: nil, isVerified: true,
                          warnings: metadata.warnings.filter { $0 != PhotoMetadata.unreadableExifWarning } + [note(format)].compactMap { $0 })
        if let damage = FiledAsItIsHandler.cutShort(bytes, size: input.source.size) {
            // Still the user's bytes: filed as they are, and said.
            photo.damage = damage
            photo.warnings.append("damaged (\(damage)): filed byte for byte as it is")
        }
        try sink.accept(.photo(photo))
    }

    /// Why a file is cut short, where its own header says how long it is: a RIFF file (WebP, AVI,
    /// WAV) whose size field is past its end or that holds no chunk, a GIF with no trailer.
    static func cutShort(_ bytes: [UInt8], size: Int64) -> String? {
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
}
