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
        let (content, digest, inspection) = try largePhoto.read(input, context: context, describe: { content in
            switch content {
            case .memory(let bytes): try PNGCodec.inspect(bytes)
            case .file(let file): try PNGCodec.inspect(file)
            }
        }, pixels: { $0.width * $0.height })
        // tIME is UTC: an instant, named on the wall clock of the library's time zone like mtime.
        let time = inspection.modificationTime.map { $0.date(in: TimeZone(identifier: "UTC")!) }
        let xmp: String? = if case .memory(let bytes) = content { PNGChunks.xmpPacket(in: bytes) } else { nil }
        let metadata = PhotoMetadata(exif: inspection.exif, xmp: xmp, pngTime: time, source: input.source,
                                     timeZone: context.timeZone)
        try sink.accept(.photo(Photo(source: input.source, format: .png, content: content, sourceDigest: digest,
                             orientation: metadata.orientation, width: inspection.width, height: inspection.height,
                             captureDate: metadata.captureDate, exif: inspection.exif, isVerified: true,
                             warnings: metadata.warnings + [inspection.warning].compactMap { $0 })))
    }

    public func upright(_ photo: Photo) throws -> Photo {
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
