import DossierCore

/// What turning a photo upright by its pixels takes in every format that does it (JPEG, PNG),
/// around the format's own codec: the EXIF block made upright (Orientation 1, the sizes swapped,
/// its thumbnail turned too, or dropped when it does not fit), the memory the turn may hold
/// reserved, and the photo's facts updated once its bytes are turned.
struct PixelTurn {
    let photo: Photo
    /// The upright EXIF block as a JPEG APP1 payload (`Exif\0\0` and the TIFF structure); nil
    /// when the block stays as it is (none, or its tag reads 1 already).
    let newExif: [UInt8]?
    /// What the turn may hold at its peak (`TurnMemoryBudget`).
    let memory: Int
    /// The photo's warnings, and the codec's.
    var warnings: [String]
    /// The codec decoded and encoded the pixels again (`Photo.filedLossily`).
    var encodedAgain = false

    /// `exifFitsAPP1Segment`: whether the upright block must fit a JPEG segment (a PNG's eXIf
    /// chunk has no such bound). `bytesPerPixel`: what turning the picture in memory holds.
    init(_ photo: Photo, exifFitsAPP1Segment: Bool, bytesPerPixel: Int) throws {
        self.photo = photo
        warnings = photo.warnings
        let block = photo.exif.flatMap(ExifBlock.init(tiff:))
        // The tag must read 1 afterwards: also when it held 0 or a value out of range.
        let rewriteExif = block.map { $0.orientationTag.map { $0 != 1 } ?? false } ?? false
        newExif = try block.flatMap { block in
            guard rewriteExif else { return nil }
            return try PixelTurn.uprightExif(block, of: photo, fitsAPP1Segment: exifFitsAPP1Segment)
        }
        if case .memory = photo.content {
            memory = TurnMemoryBudget.estimate(width: photo.width, height: photo.height, bytesPerPixel: bytesPerPixel)
        } else {
            memory = TurnMemoryBudget.largePhotoEstimate
        }
    }

    /// The upright EXIF block as a TIFF structure (a PNG's eXIf chunk), without the APP1 prefix.
    var newExifTIFF: [UInt8]? { newExif.map(PixelTurn.tiff) }

    /// Runs the codec's turn once its memory is free.
    func reservingMemory<Result>(_ body: () throws -> Result) rethrows -> Result {
        try TurnMemoryBudget.shared.withReservation(of: memory, body)
    }

    /// The photo with its bytes turned: upright, its sizes swapped as the turn swapped them, its
    /// EXIF the upright block, and proven whole.
    func finished(with content: PhotoContent) -> Photo {
        var result = photo
        result.content = content
        result.orientation = .up
        result.width = photo.orientation.swapsDimensions ? photo.height : photo.width
        result.height = photo.orientation.swapsDimensions ? photo.width : photo.height
        result.exif = newExifTIFF ?? photo.exif
        result.isVerified = true
        result.warnings = warnings
        result.filedLossily = photo.filedLossily || encodedAgain
        return result
    }

    /// The EXIF block for the upright photo, with its thumbnail turned too (or dropped if that
    /// fails, or if the block would not fit a JPEG APP1 segment with it).
    private static func uprightExif(_ block: ExifBlock, of photo: Photo, fitsAPP1Segment: Bool) throws -> [UInt8] {
        let width = photo.orientation.swapsDimensions ? photo.height : photo.width
        let height = photo.orientation.swapsDimensions ? photo.width : photo.height
        let thumbnail = block.thumbnail.flatMap { thumbnail -> [UInt8]? in
            guard photo.orientation != .up else { return thumbnail }
            return try? JPEGCodec.orient(thumbnail, orientation: photo.orientation.rawValue, exifPayload: nil).output
        }
        block.makeUpright(width: width, height: height, thumbnail: thumbnail)
        if let bytes = block.serialized(), bytes.count <= JPEGSegments.maximumExifPayload || !fitsAPP1Segment {
            return bytes
        }
        block.makeUpright(width: width, height: height, thumbnail: nil)
        guard let bytes = block.serialized() else {
            throw PhotoError.encodingFailed(format: photo.format.displayName, message: "libexif could not write the EXIF block")
        }
        guard bytes.count <= JPEGSegments.maximumExifPayload || !fitsAPP1Segment else {
            throw PhotoError.exifTooLarge(size: bytes.count)
        }
        return bytes
    }

    private static func tiff(_ payload: [UInt8]) -> [UInt8] {
        Array(payload.dropFirst(JPEGSegments.exifPrefix.count))
    }
}
