import DossierCore

/// Makes every photo look right without help from its tag: pixels turned per the EXIF
/// Orientation, the tag set to 1, the thumbnail turned too, the pixel dimensions updated, and
/// everything else kept. Photos that need no turning are proven whole (a JPEG's entropy-coded
/// data decoded) and kept byte for byte, apart from a bogus tag value reset to 1. A large photo
/// (`LargePhoto`) is turned from its scratch file into another, the same bytes an in-memory turn
/// gives. A HEIF is never re-encoded: see `HEIFOrientation`.
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
        if photo.format.isHEIF { return try HEIFOrientation.resettingExifTag(of: photo) }
        // A movie's turn is its track matrix, which players honour: turning it means re-encoding.
        if photo.format.isVideo { return photo }
        var result = photo
        let block = photo.exif.flatMap(ExifBlock.init(tiff:))
        let width = photo.orientation.swapsDimensions ? photo.height : photo.width
        let height = photo.orientation.swapsDimensions ? photo.width : photo.height
        // The tag must read 1 afterwards: also when it held 0 or a value out of range.
        let rewriteExif = block.map { $0.orientationTag.map { $0 != 1 } ?? false } ?? false
        let newExif = rewriteExif ? try uprightExif(block!, width: width, height: height, photo: photo) : nil

        switch photo.content {
        case .memory(let bytes):
            result.content = .memory(try uprightBytes(bytes, photo: photo, newExif: newExif, warnings: &result.warnings))
        case .file(let file):
            result.content = .file(try uprightFile(file, photo: photo, newExif: newExif, warnings: &result.warnings))
        }
        result.orientation = .up
        result.width = width
        result.height = height
        result.exif = newExif.map(tiff) ?? photo.exif
        result.isVerified = true
        return result
    }

    /// An everyday photo, turned in memory.
    private func uprightBytes(_ bytes: [UInt8], photo: Photo, newExif: [UInt8]?, warnings: inout [String]) throws
        -> [UInt8]
    {
        switch (photo.format, photo.orientation) {
        case (.jpeg, .up):
            if !photo.isVerified, let warning = try JPEGCodec.validate(bytes) { warnings.append(warning) }
            guard let newExif else { return bytes }
            return try JPEGSegments.replacingExif(in: bytes, with: newExif)
        case (.jpeg, let orientation):
            let turned = try TurnMemoryBudget.shared.withReservation(of: budget(photo)) {
                try JPEGCodec.orient(bytes, orientation: orientation.rawValue, exifPayload: newExif)
            }
            if let warning = turned.warning { warnings.append(warning) }
            return turned.output
        case (.png, .up):
            guard let newExif else { return bytes }
            return PNGChunks.replacingExif(in: bytes, with: tiff(newExif))
        case (.png, let orientation):
            return try TurnMemoryBudget.shared.withReservation(of: budget(photo)) {
                try PNGCodec.orient(bytes, orientation: orientation.rawValue, exif: newExif.map(tiff))
            }
        case (.heic, _), (.avif, _), (.quickTime, _), (.mp4, _), (.m4v, _), (.threeGP, _):
            preconditionFailure("HEIF photos and videos are not turned here")
        }
    }

    /// A large photo, turned from its scratch file into another (see LargePhoto).
    private func uprightFile(_ file: ScratchFile, photo: Photo, newExif: [UInt8]?, warnings: inout [String]) throws
        -> ScratchFile
    {
        switch (photo.format, photo.orientation) {
        case (.jpeg, .up):
            if !photo.isVerified {
                let warning = try TurnMemoryBudget.shared.withReservation(of: budget(photo)) { try JPEGCodec.validate(file) }
                if let warning { warnings.append(warning) }
            }
            guard let newExif else { return file }
            return try JPEGSegments.replacingExif(in: file, with: newExif)
        case (.jpeg, let orientation):
            let turned = try TurnMemoryBudget.shared.withReservation(of: budget(photo)) {
                try JPEGCodec.orient(file, orientation: orientation.rawValue, exifPayload: newExif)
            }
            if let warning = turned.warning { warnings.append(warning) }
            return turned.output
        case (.png, .up):
            guard let newExif else { return file }
            return try PNGChunks.replacingExif(in: file, with: tiff(newExif))
        case (.png, let orientation):
            return try TurnMemoryBudget.shared.withReservation(of: budget(photo)) {
                try PNGCodec.orient(file, orientation: orientation.rawValue, exif: newExif.map(tiff))
            }
        case (.heic, _), (.avif, _), (.quickTime, _), (.mp4, _), (.m4v, _), (.threeGP, _):
            preconditionFailure("HEIF photos and videos are not turned here")
        }
    }

    /// The EXIF block for the upright photo, with its thumbnail turned too (or dropped if that
    /// fails, or if the block would not fit a JPEG APP1 segment with it).
    private func uprightExif(_ block: ExifBlock, width: Int, height: Int, photo: Photo) throws -> [UInt8] {
        let thumbnail = block.thumbnail.flatMap { thumbnail -> [UInt8]? in
            guard photo.orientation != .up else { return thumbnail }
            return try? JPEGCodec.orient(thumbnail, orientation: photo.orientation.rawValue, exifPayload: nil).output
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
        guard case .memory = photo.content else { return TurnMemoryBudget.largePhotoEstimate }
        return TurnMemoryBudget.estimate(width: photo.width, height: photo.height, format: photo.format)
    }

    /// A JPEG segment's length field counts itself: 65535 - 2.
    static let maximumExifPayload = 65533

    private func tiff(_ payload: [UInt8]) -> [UInt8] {
        Array(payload.dropFirst(JPEGSegments.exifPrefix.count))
    }
}
