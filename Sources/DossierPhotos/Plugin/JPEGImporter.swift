import DossierCore

/// Reads JPEG photos: header facts and EXIF. Decoding waits for the orient transform, so a
/// duplicate is recognised before any pixel work.
public struct JPEGImporter: Importer {
    public let name = "jpeg"
    /// A photo is filed itself; there is no text to keep beside it.
    public let keepsSource = false
    public let summary = "JPEG photos (recognised by their FF D8 FF start); EXIF from the APP1 segment"
    let largePhoto: LargePhoto

    public init(largePhoto: LargePhoto = .standard) {
        self.largePhoto = largePhoto
    }

    public func canRead(head: [UInt8]) -> Bool {
        head.count >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let (content, digest, (info, exif)) = try largePhoto.read(input, context: context, describe: { content in
            switch content {
            case .memory(let bytes):
                return (try JPEGCodec.info(bytes), JPEGSegments.exifTIFF(in: bytes))
            case .file(let file):
                return (try JPEGCodec.info(file), JPEGSegments.exifTIFF(in: try JPEGSegments.header(of: file)))
            }
        }, pixels: { $0.0.width * $0.0.height })
        let metadata = PhotoMetadata(exif: exif, pngTime: nil, source: input.source, timeZone: context.timeZone)
        var photo = Photo(source: input.source, format: .jpeg, content: content, sourceDigest: digest,
                          orientation: metadata.orientation, width: info.width, height: info.height,
                          captureDate: metadata.captureDate, exif: exif, warnings: metadata.warnings)
        photo.isMotionPhoto = MotionPhotoMarkers.isMotionPhoto(content, format: .jpeg)
        try sink.accept(.photo(photo))
    }
}
