import DossierCore

/// The picture filed beside a raw: the preview its camera embedded (LibRaw takes it out), a
/// JPEG, turned upright as the raw says it is shown, its own EXIF (if it has one) made to say
/// so. A raw filed beside its camera's JPEG (`IMG_0001.CR2` with `IMG_0001.JPG`) has none: that
/// JPEG is its picture.
enum RawRendition {
    static let quality = 90
    /// What turning the preview holds at its peak, a pixel: its decoded rows and the encoder's.
    static let bytesPerPixel = 6

    static func rendition(of photo: Photo) throws -> PhotoRendition? {
        guard photo.besideStill == nil else { return nil }
        let (facts, preview) = try RawCodec.preview(of: photo.content)
        var jpeg: [UInt8]
        switch preview {
        case .jpeg(let bytes): jpeg = bytes
        case .rgb(let pixels, let width, let height):
            jpeg = try JPEGCodec.encode(rgb: pixels, width: width, height: height, quality: quality)
        }
        let stored = try JPEGCodec.info(jpeg)
        let turn = facts.orientation
        let width = turn.swapsDimensions ? stored.height : stored.width
        let height = turn.swapsDimensions ? stored.width : stored.height
        // A preview's own EXIF would have viewers turn it again: it says upright, at its new size.
        let exif = JPEGSegments.exifTIFF(in: jpeg).flatMap(ExifBlock.init(tiff:)).flatMap { block -> [UInt8]? in
            block.makeUpright(width: width, height: height, thumbnail: nil)
            return block.serialized()
        }
        if turn != .up || exif != nil {
            jpeg = try TurnMemoryBudget.shared.withReservation(
                of: TurnMemoryBudget.estimate(width: stored.width, height: stored.height, bytesPerPixel: bytesPerPixel)
            ) { try JPEGCodec.orient(jpeg, orientation: turn.rawValue, exifPayload: exif).output }
        }
        return PhotoRendition(format: .jpeg, bytes: jpeg, width: width, height: height)
    }
}
