import DossierCore

/// Makes every photo look right without help from its tag: pixels turned per the EXIF
/// Orientation, the tag set to 1, the thumbnail turned too, the pixel dimensions updated, and
/// everything else kept. Photos that need no turning are proven whole (a JPEG's entropy-coded
/// data decoded) and kept byte for byte, apart from a bogus tag value reset to 1.
public struct OrientTransform: Transform {
    public let name = "orient"
    public let summary = "turns photos upright per their EXIF Orientation (lossless for JPEG where the MCUs allow)"
    public let stage = TransformStage.content

    public init() {}

    public func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        for index in batch.items.indices {
            guard case .photo(let photo) = batch.items[index] else { continue }
            batch.items[index] = .photo(try upright(photo))
        }
    }

    func upright(_ photo: Photo) throws -> Photo {
        var result = photo
        let block = photo.exif.flatMap(ExifBlock.init(tiff:))
        let width = photo.orientation.swapsDimensions ? photo.height : photo.width
        let height = photo.orientation.swapsDimensions ? photo.width : photo.height
        // The tag must read 1 afterwards: also when it held 0 or a value out of range.
        let rewriteExif = block.map { $0.orientationTag.map { $0 != 1 } ?? false } ?? false
        let newExif = rewriteExif ? try uprightExif(block!, width: width, height: height, photo: photo) : nil

        switch (photo.format, photo.orientation) {
        case (.jpeg, .up):
            if !photo.isVerified, let warning = try JPEGCodec.validate(photo.bytes) { result.warnings.append(warning) }
            if let newExif { result.bytes = try JPEGSegments.replacingExif(in: photo.bytes, with: newExif) }
        case (.jpeg, let orientation):
            let turned = try TurnMemoryBudget.shared.withReservation(of: budget(photo)) {
                try JPEGCodec.orient(photo.bytes, orientation: orientation.rawValue, exifPayload: newExif)
            }
            // What follows the picture (a motion photo's video, whose offsets count from the end
            // of the file) is carried over unchanged, after the new end-of-image marker.
            // Appended in place: `+` would copy the whole turned picture once more (200 MB for
            // the largest photos) even when nothing follows it.
            result.bytes = turned.bytes
            result.bytes.append(contentsOf: JPEGSegments.trailingBytes(of: photo.bytes))
            if let warning = turned.warning { result.warnings.append(warning) }
        case (.png, .up):
            if let newExif { result.bytes = PNGChunks.replacingExif(in: photo.bytes, with: tiff(newExif)) }
        case (.png, let orientation):
            result.bytes = try TurnMemoryBudget.shared.withReservation(of: budget(photo)) {
                try PNGCodec.orient(photo.bytes, orientation: orientation.rawValue, exif: newExif.map(tiff))
            }
        }
        result.orientation = .up
        result.width = width
        result.height = height
        result.exif = newExif.map(tiff) ?? photo.exif
        result.isVerified = true
        return result
    }

    /// The EXIF block for the upright photo, with its thumbnail turned too (or dropped if that
    /// fails, or if the block would not fit a JPEG APP1 segment with it).
    private func uprightExif(_ block: ExifBlock, width: Int, height: Int, photo: Photo) throws -> [UInt8] {
        let thumbnail = block.thumbnail.flatMap { thumbnail -> [UInt8]? in
            guard photo.orientation != .up else { return thumbnail }
            return try? JPEGCodec.orient(thumbnail, orientation: photo.orientation.rawValue, exifPayload: nil).bytes
        }
        block.makeUpright(width: width, height: height, thumbnail: thumbnail)
        if let bytes = block.serialized(), bytes.count <= OrientTransform.maximumExifPayload || photo.format == .png {
            return bytes
        }
        block.makeUpright(width: width, height: height, thumbnail: nil)
        guard let bytes = block.serialized() else {
            throw PhotoError.encodingFailed(format: photo.format.displayName, message: "libexif could not write the EXIF block")
        }
        guard bytes.count <= OrientTransform.maximumExifPayload || photo.format == .png else {
            throw PhotoError.exifTooLarge(size: bytes.count)
        }
        return bytes
    }

    private func budget(_ photo: Photo) -> Int {
        TurnMemoryBudget.estimate(width: photo.width, height: photo.height, format: photo.format)
    }

    /// A JPEG segment's length field counts itself: 65535 - 2.
    static let maximumExifPayload = 65533

    private func tiff(_ payload: [UInt8]) -> [UInt8] {
        Array(payload.dropFirst(JPEGSegments.exifPrefix.count))
    }
}
