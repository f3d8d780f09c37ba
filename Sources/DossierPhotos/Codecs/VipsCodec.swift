import CImageShims
import DossierCore

/// Swift's door to libvips, through the C shims: renditions of the images browsers cannot show
/// (TIFF, BMP, JPEG XL). libvips is loaded the first time one is asked for (`vips_codec.c`).
public enum VipsCodec {
    /// Whether libvips can be used here; the reason it cannot, if not.
    public static var unavailableReason: String? {
        var status = dossier_status()
        return dossier_vips_available(&status) != 0 ? nil : status.messageText
    }

    /// What making one holds at its peak, a pixel: libvips' decoded picture (up to 4 bytes) and
    /// the encoder's rows (about 0.5 GB for a 144-megapixel scan, measured).
    static let bytesPerPixel = 4

    /// The picture upright by its orientation tag, in sRGB, at full size: a JPEG of `quality`,
    /// or a PNG when it has alpha. Fails on a picture that does not decode cleanly. Made within
    /// the memory budget all turns share (`TurnMemoryBudget`), by the size its header gives.
    public static func rendition(of content: PhotoContent, format: String, quality: Int) throws -> PhotoRendition {
        var width: Int32 = 0, height: Int32 = 0
        var status = dossier_status()
        let result = content.withCInput { data, size, path in dossier_vips_size(data, size, path, &width, &height, &status) }
        guard result == 0 else { throw status.error(format: format) }
        return try TurnMemoryBudget.shared.withReservation(
            of: TurnMemoryBudget.estimate(width: Int(width), height: Int(height), bytesPerPixel: bytesPerPixel)
        ) { try made(of: content, format: format, quality: quality) }
    }

    /// What decoding a picture whole tells of it, where its structure tells nothing (a bare JPEG
    /// XL codestream declares no length): its rendition, or why its data does not decode to its
    /// end though its header reads (cut short, or broken). Unknown when libvips cannot be used
    /// here, cannot read even its header, or the picture is larger than renditions are made.
    public enum Decoded: Sendable {
        case whole(PhotoRendition)
        case damaged(String)
        case unknown
    }

    public static func decodedWhole(_ content: PhotoContent, format: String, quality: Int) -> Decoded {
        var width: Int32 = 0, height: Int32 = 0
        var status = dossier_status()
        guard content.withCInput({ data, size, path in dossier_vips_size(data, size, path, &width, &height, &status) }) == 0
        else { return .unknown }
        do {
            return .whole(try TurnMemoryBudget.shared.withReservation(
                of: TurnMemoryBudget.estimate(width: Int(width), height: Int(height), bytesPerPixel: bytesPerPixel)
            ) { try made(of: content, format: format, quality: quality) })
        } catch PhotoError.corrupt(_, let message) {
            return .damaged(message)
        } catch {
            return .unknown
        }
    }

    private static func made(of content: PhotoContent, format: String, quality: Int) throws(PhotoError) -> PhotoRendition {
        var output = dossier_buffer()
        var isPNG: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        var status = dossier_status()
        let result = content.withCInput { data, size, path in
            dossier_vips_render(data, size, path, Int32(quality), &output, &isPNG, &width, &height, &status)
        }
        let bytes = output.takeBytes()
        guard result == 0 else { throw status.error(format: format) }
        return PhotoRendition(format: isPNG != 0 ? .png : .jpeg, bytes: bytes, width: Int(width), height: Int(height))
    }

    /// 8-bit RGB saved in the format libvips writes for `suffix` (".jxl"): for tests that need a
    /// picture in a format nothing else here writes.
    public static func encode(rgb: [UInt8], width: Int, height: Int, suffix: String) throws(PhotoError) -> [UInt8] {
        var output = dossier_buffer()
        var status = dossier_status()
        let result = rgb.withUnsafeBufferPointer { pixels in
            dossier_vips_encode_rgb(pixels.baseAddress, Int32(width), Int32(height), suffix, &output, &status)
        }
        let bytes = output.takeBytes()
        guard result == 0 else { throw status.error(format: suffix) }
        return bytes
    }
}
