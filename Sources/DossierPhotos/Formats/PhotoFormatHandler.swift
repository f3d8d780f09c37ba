import DossierCore
import Foundation

/// Everything the photos plugin knows of one format: how to recognise it by its first bytes and
/// read its facts (the `Importer` part), how to make a photo of it upright for good, and what to
/// file beside it. Adding a format is a handler in a new file, its `PhotoFormat` values, and one
/// line in the list a plugin registers (`Plugin.photos`, or `Plugin.photoFormats` for a plugin of
/// its own); Core files it by those values alone.
public protocol PhotoFormatHandler: Importer {
    /// The formats the photos it reads are filed in (HEIF: HEIC and AVIF). Each photo it hands
    /// over carries one of them, which is how the transforms find their way back to it.
    var formats: [PhotoFormat] { get }

    /// The photo as it is filed: upright without help from a tag, and proven whole where the
    /// format allows. A format filed byte for byte (a movie) gives it back as it is.
    func upright(_ photo: Photo) throws -> Photo

    /// The picture filed beside a photo browsers cannot show (`PhotoFormat.hasRendition`),
    /// upright as displayed, for programs that cannot read the photo; nil when none is filed.
    /// Asked after `upright`.
    func rendition(of photo: Photo, warnings: inout [String]) throws -> PhotoRendition?
}

extension PhotoFormatHandler {
    /// A photo is filed itself; there is no text to keep beside it.
    public var keepsSource: Bool { false }

    public func rendition(of photo: Photo, warnings: inout [String]) throws -> PhotoRendition? { nil }
}

// MARK: - PixelTurn

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

// MARK: - TurnMemoryBudget

/// Bounds the memory the photos being turned at once may take together, whatever `--jobs` says.
///
/// Turning a picture holds it whole: a JPEG's DCT coefficients (2 bytes a sample), and on the
/// pixel path its samples too; a PNG's rows in and out. The largest photos take close to a
/// gigabyte each, so four jobs meeting four of them would take several. Each turn reserves its
/// estimate first and waits while the photos under way hold the rest; one larger than the whole
/// budget runs on its own. Everyday photos pass several at a time and never wait.
///
/// The wait blocks its thread. Turns run on the import's source threads (`BlockingExecutor`, off
/// Swift's cooperative pool), at most `--jobs` of them, and a reservation is only ever waited on
/// by a turn, never held across one: the holders are always running, so they finish and wake
/// the waiters.
final class TurnMemoryBudget: Sendable {
    static let shared = TurnMemoryBudget(capacity: 768 << 20)

    private let budget: BlockingWork.SharedBudget
    var capacity: Int { budget.capacity }

    init(capacity: Int) {
        budget = BlockingWork.SharedBudget(capacity: capacity)
    }

    /// Runs `body` once `bytes` (at most the whole budget) are free.
    func withReservation<Result>(of bytes: Int, _ body: () throws -> Result) rethrows -> Result {
        try budget.withReservation(of: bytes, body)
    }

    /// What turning a large photo through scratch files holds at its peak: the resident parts of
    /// its mapped scratch files (at most DOSSIER_SCRATCH_RESIDENT, 32 MiB, each and a little
    /// more, for the three turned components read together) and the codecs' buffers.
    static let largePhotoEstimate = 160 << 20

    /// What turning a picture of `width` x `height` in memory may hold at its peak, at what its
    /// format's turn holds a pixel (`JPEGHandler.turnBytesPerPixel`, `HEIFRendition.bytesPerPixel`).
    /// A size a damaged file declares (a PNG's IHDR of 2^31 x 2^31) is more than any budget: the
    /// product saturates rather than overflow, and the decoder then refuses the picture.
    static func estimate(width: Int, height: Int, bytesPerPixel: Int) -> Int {
        let (pixels, overflow) = max(width, 0).multipliedReportingOverflow(by: max(height, 0))
        let (bytes, overflowAgain) = pixels.multipliedReportingOverflow(by: max(bytesPerPixel, 0))
        return overflow || overflowAgain ? .max : bytes
    }
}
