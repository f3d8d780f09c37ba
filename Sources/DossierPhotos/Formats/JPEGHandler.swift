import DossierCore

/// JPEG photos. Read: header facts and EXIF; decoding waits for the turn, so a duplicate is
/// recognised before any pixel work. Turned: losslessly where the MCUs allow, else through its
/// pixels; one that needs no turn is proven whole (its entropy-coded data decoded) and kept byte
/// for byte, apart from a bogus tag value reset to 1. A large photo (`LargePhoto`) is turned from
/// its scratch file into another, the same bytes an in-memory turn gives.
public struct JPEGHandler: PhotoFormatHandler {
    public let name = "jpeg"
    public let summary = "JPEG photos (recognised by their FF D8 FF start); EXIF and XMP from APP1 segments, IPTC from APP13"
    public let formats: [PhotoFormat] = [.jpeg]
    /// What turning one in memory may hold at its peak, a pixel: its DCT coefficients (2 bytes
    /// for each of up to 3 samples) and, on the pixel path, its samples.
    static let turnBytesPerPixel = 9
    let largePhoto: LargePhoto

    public init(largePhoto: LargePhoto = .standard) {
        self.largePhoto = largePhoto
    }

    public func canRead(head: [UInt8]) -> Bool {
        head.count >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let (content, digest, (info, (exif, xmp, iptc))) = try largePhoto.read(input, context: context, describe: { content in
            switch content {
            case .memory(let bytes):
                return (try JPEGCodec.info(bytes), JPEGHandler.metadataSegments(in: bytes))
            case .file(let file):
                return (try JPEGCodec.info(file), JPEGHandler.metadataSegments(in: try JPEGSegments.header(of: file)))
            }
        }, pixels: { $0.0.width * $0.0.height })
        let metadata = PhotoMetadata(exif: exif, xmp: xmp, iptc: iptc, pngTime: nil, source: input.source,
                                     timeZone: context.timeZone)
        var photo = Photo(source: input.source, format: .jpeg, content: content, sourceDigest: digest,
                          orientation: metadata.orientation, width: info.width, height: info.height,
                          captureDate: metadata.captureDate, exif: exif, warnings: metadata.warnings, contentDigest: digest)
        photo.isMotionPhoto = MotionPhotoMarkers.isMotionPhoto(content, format: .jpeg)
        photo.contentIdentifier = photo.exif.flatMap(AppleMakerNote.contentIdentifier(inExif:))
        try sink.accept(.photo(photo))
    }

    /// Whether it runs to its end marker (`CutShort.jpeg`): its damage, if any, its decoder tells
    /// when it is turned (`damagedButReadable`).
    public func cutShort(_ input: SourceInput) -> String? {
        input.cutShort(by: CutShort.jpeg)
    }

    /// What the marker segments before the first scan say: EXIF (APP1), XMP (APP1) and IPTC's
    /// date (APP13).
    static func metadataSegments(in header: [UInt8]) -> (exif: [UInt8]?, xmp: String?, iptc: CaptureDate?) {
        (JPEGSegments.exifTIFF(in: header), JPEGSegments.xmpPacket(in: header),
         JPEGSegments.photoshopResources(in: header).flatMap(IPTCDates.captureDate(inPhotoshopResources:)))
    }

    public func upright(_ photo: Photo) throws -> Photo {
        var turn = try PixelTurn(photo, exifFitsAPP1Segment: true, bytesPerPixel: JPEGHandler.turnBytesPerPixel)
        do {
            switch photo.content {
            case .memory(let bytes):
                let upright = try uprightBytes(bytes, turn: &turn)
                return turn.finished(with: .memory(upright))
            case .file(let file):
                let upright = try uprightFile(file, turn: &turn)
                return turn.finished(with: .file(upright))
            }
        } catch let error as PhotoError {
            guard case .corrupt = error, let damaged = JPEGHandler.damagedButReadable(photo) else { throw error }
            return damaged
        }
    }

    /// A JPEG whose data ends early, or whose scan is damaged, but that still decodes (viewers
    /// show it, the missing part grey): the user's only copy of that photo. Filed byte for byte,
    /// never turned (a turn would bake the damage into new pixels and drop what a repair tool
    /// could still recover); its EXIF Orientation stays, so viewers that honour it show it
    /// upright. Reported damaged, with the decoder's warning.
    static func damagedButReadable(_ photo: Photo) -> Photo? {
        let warning: String?
        switch photo.content {
        case .memory(let bytes): warning = JPEGCodec.damageThatStillDecodes(bytes)
        case .file(let file): warning = JPEGCodec.damageThatStillDecodes(file)
        }
        guard let warning else { return nil }
        var damaged = photo
        damaged.isVerified = true
        damaged.damage = warning
        damaged.warnings.append("damaged (\(warning)), but it decodes: filed byte for byte as it is"
            + (photo.orientation == .up ? "" : ", not turned (its EXIF Orientation \(photo.orientation.rawValue) kept, "
                + "so viewers that honour it show it upright)"))
        return damaged
    }

    /// An everyday photo, turned in memory.
    private func uprightBytes(_ bytes: [UInt8], turn: inout PixelTurn) throws -> [UInt8] {
        let (photo, newExif) = (turn.photo, turn.newExif)
        guard photo.orientation != .up else {
            if !photo.isVerified, let warning = try JPEGCodec.validate(bytes) { turn.warnings.append(warning) }
            guard let newExif else { return bytes }
            return try JPEGSegments.replacingExif(in: bytes, with: newExif)
        }
        let turned = try turn.reservingMemory {
            try JPEGCodec.orient(bytes, orientation: photo.orientation.rawValue, exifPayload: newExif)
        }
        if let warning = turned.warning { turn.warnings.append(warning) }
        // A warning from the turn is the decoder's: damage turned into new pixels.
        turn.encodedAgain = turned.path == .reencoded || turned.warning != nil
        return turned.output
    }

    /// A large photo, turned from its scratch file into another (see LargePhoto).
    private func uprightFile(_ file: ScratchFile, turn: inout PixelTurn) throws -> ScratchFile {
        let (photo, newExif) = (turn.photo, turn.newExif)
        guard photo.orientation != .up else {
            if !photo.isVerified {
                let warning = try turn.reservingMemory { try JPEGCodec.validate(file) }
                if let warning { turn.warnings.append(warning) }
            }
            guard let newExif else { return file }
            return try JPEGSegments.replacingExif(in: file, with: newExif)
        }
        let turned = try turn.reservingMemory {
            try JPEGCodec.orient(file, orientation: photo.orientation.rawValue, exifPayload: newExif)
        }
        if let warning = turned.warning { turn.warnings.append(warning) }
        turn.encodedAgain = turned.path == .reencoded || turned.warning != nil
        return turned.output
    }
}
