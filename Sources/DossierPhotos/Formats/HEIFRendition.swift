import DossierCore

/// The picture filed beside a HEIF: a JPEG of quality 90, upright as displayed (the container's
/// transforms applied, and an EXIF turn the container does not carry), Orientation 1, the EXIF
/// dates, camera and GPS kept (its thumbnail left out), the ICC profile kept. A picture with
/// alpha gets a PNG instead, which keeps it. Decoding the picture whole also proves the HEIF
/// whole before it is filed.
enum HEIFRendition {
    static let quality = 90
    /// What making one holds at its peak, a pixel: libheif's decoded planes (1.5 bytes a pixel
    /// at 4:2:0), its RGB (3 or 4) and the encoder's rows.
    static let bytesPerPixel = 6

    static func rendition(of photo: Photo, warnings: inout [String]) throws -> PhotoRendition {
        try TurnMemoryBudget.shared.withReservation(
            of: TurnMemoryBudget.estimate(width: photo.width, height: photo.height, bytesPerPixel: bytesPerPixel)
        ) { try made(of: photo, warnings: &warnings) }
    }

    private static func made(of photo: Photo, warnings: inout [String]) throws -> PhotoRendition {
        let turn = photo.orientation
        let width = turn.swapsDimensions ? photo.height : photo.width
        let height = turn.swapsDimensions ? photo.width : photo.height
        let inspection = try HEIFCodec.inspect(photo.content)
        if inspection.hasAlpha {
            let pixels = try HEIFCodec.decode(photo.content)
            // The sizes the PNG has once turned: the turn below keeps its eXIf chunk as it is.
            let exif = uprightExif(photo.exif, width: width, height: height)
            var png = try PNGCodec.encodeRGBA(pixels.bytes, width: pixels.width, height: pixels.height,
                                              exif: exif.map { Array($0.dropFirst(JPEGSegments.exifPrefix.count)) })
            if turn != .up { png = try PNGCodec.orient(png, orientation: turn.rawValue, exif: nil) }
            return PhotoRendition(format: .png, bytes: png, width: width, height: height)
        }
        var exif = uprightExif(photo.exif, width: width, height: height)
        if let payload = exif, payload.count > JPEGSegments.maximumExifPayload {
            warnings.append("the EXIF block (\(payload.count) bytes) does not fit a JPEG: the rendition has none")
            exif = nil
        }
        var jpeg = try HEIFCodec.renderJPEG(photo.content, quality: quality, exifPayload: exif).bytes
        if turn != .up {
            jpeg = try JPEGCodec.orient(jpeg, orientation: turn.rawValue, exifPayload: exif).output
        }
        return PhotoRendition(format: .jpeg, bytes: jpeg, width: width, height: height)
    }

    /// The HEIF's EXIF block for a picture shown upright at `width` x `height`, as a JPEG APP1
    /// payload (`Exif\0\0` and the TIFF structure); nil when it has none or libexif cannot read it.
    private static func uprightExif(_ tiff: [UInt8]?, width: Int, height: Int) -> [UInt8]? {
        guard let tiff, let block = ExifBlock(tiff: tiff) else { return nil }
        block.makeUpright(width: width, height: height, thumbnail: nil)
        return block.serialized()
    }
}
