import DossierCore

/// Reads JPEG photos: header facts and EXIF. Decoding waits for the orient transform, so a
/// duplicate is recognised before any pixel work.
public struct JPEGImporter: Importer {
    public let name = "jpeg"
    /// A photo is filed itself; there is no text to keep beside it.
    public let keepsSource = false
    public let summary = "JPEG photos (recognised by their FF D8 FF start); EXIF from the APP1 segment"

    public init() {}

    public func canRead(head: [UInt8]) -> Bool {
        head.count >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let data = try input.readAll()
        let info = try JPEGCodec.info(data.bytes)
        let exif = JPEGSegments.exifTIFF(in: data.bytes)
        let metadata = PhotoMetadata(exif: exif, pngTime: nil, source: data.source, timeZone: context.timeZone)
        try sink.accept(.photo(Photo(source: data.source, format: .jpeg, bytes: data.bytes, sourceDigest: data.digest,
                                     orientation: metadata.orientation, width: info.width, height: info.height,
                                     captureDate: metadata.captureDate, exif: exif, warnings: metadata.warnings)))
    }
}
