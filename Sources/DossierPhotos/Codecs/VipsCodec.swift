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

    /// The picture upright by its orientation tag, in sRGB, at full size: a JPEG of `quality`,
    /// or a PNG when it has alpha. Fails on a picture that does not decode cleanly.
    public static func rendition(of content: PhotoContent, format: String, quality: Int) throws(PhotoError)
        -> PhotoRendition
    {
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
