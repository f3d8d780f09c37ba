import DossierCore
import Foundation

/// PNG photos and screenshots. Read: decoded whole to prove them valid (PNGs are small next to
/// camera JPEGs, and libpng checks every CRC only while decoding); EXIF from the eXIf chunk, the
/// date from tIME. Turned through their pixels, every other chunk kept.
public struct PNGHandler: PhotoFormatHandler {
    public let name = "png"
    public let summary = "PNG images (recognised by their signature); EXIF from the eXIf chunk, date from tIME"
    public let formats: [PhotoFormat] = [.png]
    /// What turning one in memory may hold at its peak, a pixel: its rows in and out at up to
    /// 8 bytes a pixel (16-bit RGBA).
    static let turnBytesPerPixel = 16
    let largePhoto: LargePhoto

    public init(largePhoto: LargePhoto = .standard) {
        self.largePhoto = largePhoto
    }

    public func canRead(head: [UInt8]) -> Bool {
        guard head.count >= 16 else { return false }
        if head.starts(with: PNGChunks.signature) { return true }
        // A signature damaged in transit (line-ending conversion, a cleared high bit) still heads
        // a PNG when its IHDR chunk follows: claim it, so libpng's refusal names the damage
        // instead of the file being skipped as unknown.
        let matching = zip(head.prefix(8), PNGChunks.signature).filter { $0 == $1 }.count
        return matching >= 5 && head[12..<16].elementsEqual("IHDR".utf8)
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let (content, digest, read) = try largePhoto.read(input, context: context, describe: { content -> (PNGCodec.Inspection?, String?) in
            switch content {
            case .memory(let bytes):
                do {
                    return (try PNGCodec.inspect(bytes), nil)
                } catch let error as PhotoError {
                    guard case .corrupt = error, let damage = PNGCodec.damageThatStillDecodes(bytes) else { throw error }
                    return (nil, damage)
                }
            case .file(let file):
                do {
                    return (try PNGCodec.inspect(file), nil)
                } catch let error as PhotoError {
                    guard case .corrupt = error, let damage = PNGCodec.damageThatStillDecodes(file) else { throw error }
                    return (nil, damage)
                }
            }
        }, pixels: { $0.0.map { $0.width * $0.height } ?? 0 })
        guard let inspection = read.0 else {
            try sink.accept(.photo(PNGHandler.damagedButReadable(input, content: content, digest: digest, damage: read.1 ?? "",
                                                                 context: context)))
            return
        }
        // tIME is UTC: an instant, named on the wall clock of the library's time zone like mtime.
        let time = inspection.modificationTime.map { $0.date(in: TimeZone(identifier: "UTC")!) }
        let xmp: String? = if case .memory(let bytes) = content { PNGChunks.xmpPacket(in: bytes) } else { nil }
        let metadata = PhotoMetadata(exif: inspection.exif, xmp: xmp, pngTime: time, source: input.source,
                                     timeZone: context.timeZone)
        try sink.accept(.photo(Photo(source: input.source, format: .png, content: content, sourceDigest: digest,
                             orientation: metadata.orientation, width: inspection.width, height: inspection.height,
                             captureDate: metadata.captureDate, exif: inspection.exif, isVerified: true,
                             warnings: metadata.warnings + [inspection.warning].compactMap { $0 }, contentDigest: digest)))
    }

    /// A PNG whose data ends early but whose first rows decode (viewers show them, the rest
    /// blank): the user's only copy of that picture. Filed byte for byte, never turned (a turn
    /// would make the damage into new pixels); dated by its name or time, since the chunks that
    /// would date it may be the ones missing. Reported damaged, with what is missing.
    static func damagedButReadable(_ input: SourceInput, content: PhotoContent, digest: ContentDigest, damage: String,
                                   context: PipelineContext) -> Photo {
        let metadata = PhotoMetadata(exif: nil, pngTime: nil, source: input.source, timeZone: context.timeZone)
        var photo = Photo(source: input.source, format: .png, content: content, sourceDigest: digest, orientation: .up,
                          width: 0, height: 0, captureDate: metadata.captureDate, exif: nil, isVerified: true,
                          warnings: metadata.warnings + ["damaged (\(damage)), but it decodes: filed byte for byte as it is"],
                          contentDigest: digest)
        photo.damage = damage
        return photo
    }

    /// Whether it runs chunk by chunk to its `IEND` (`CutShort.png`).
    public func cutShort(_ input: SourceInput) -> String? {
        input.cutShort(by: CutShort.png)
    }

    public func upright(_ photo: Photo) throws -> Photo {
        // A damaged PNG is filed as it is (`damagedButReadable`).
        guard photo.damage == nil else { return photo }
        let turn = try PixelTurn(photo, exifFitsAPP1Segment: false, bytesPerPixel: PNGHandler.turnBytesPerPixel)
        let (orientation, exif) = (photo.orientation, turn.newExifTIFF)
        switch photo.content {
        case .memory(let bytes):
            guard orientation != .up else {
                return turn.finished(with: .memory(exif.map { PNGChunks.replacingExif(in: bytes, with: $0) } ?? bytes))
            }
            let turned = try turn.reservingMemory { try PNGCodec.orient(bytes, orientation: orientation.rawValue, exif: exif) }
            return turn.finished(with: .memory(turned))
        case .file(let file):
            guard orientation != .up else {
                return turn.finished(with: .file(try exif.map { try PNGChunks.replacingExif(in: file, with: $0) } ?? file))
            }
            let turned = try turn.reservingMemory { try PNGCodec.orient(file, orientation: orientation.rawValue, exif: exif) }
            return turn.finished(with: .file(turned))
        }
    }
}
