import CImageShims
import DossierCore

/// Swift's door to libheif, through the C shims. Every call reads the primary image, with the
/// container's transforms (clap, irot, imir) applied as HEIF says every reader must.
public enum HEIFCodec {
    public struct Inspection: Sendable {
        /// As displayed: after the container's transforms.
        public let width: Int
        public let height: Int
        public let hasAlpha: Bool
        public let bitDepth: Int
        /// The EXIF item as stored (usually a 4-byte offset, then the TIFF block). Empty when the
        /// file has one larger than DOSSIER_MAX_METADATA_SIZE: there, but not taken (and so reported
        /// as unreadable).
        public let exifItem: [UInt8]?
        public let iccProfile: [UInt8]?
    }

    /// Decoded pixels: 8-bit RGB or RGBA rows, `channels` bytes a pixel.
    public struct Pixels: Sendable {
        public let bytes: [UInt8]
        public let width: Int
        public let height: Int
        public let channels: Int
    }

    static let formatName = "HEIF"

    /// Threads libheif may use to decode one picture's grid tiles. An iPhone photo is 48 tiles;
    /// two threads a picture keep both cores busy however many pictures run at once.
    static let decodingThreads: Int32 = 2

    /// Opens the file and reads the primary image's facts and metadata; decodes nothing.
    public static func inspect(_ content: PhotoContent) throws(PhotoError) -> Inspection {
        try HEIFItemLimits.check(content)
        var info = dossier_heif_info()
        var exif = dossier_buffer()
        var icc = dossier_buffer()
        var status = dossier_status()
        let result = content.withCInput { data, size, path in
            dossier_heif_inspect(data, size, path, &info, &exif, &icc, &status)
        }
        let exifBytes = exif.takeBytes()
        let iccBytes = icc.takeBytes()
        guard result == 0 else { throw status.error(format: formatName) }
        return Inspection(width: Int(info.width), height: Int(info.height), hasAlpha: info.has_alpha != 0,
                          bitDepth: Int(info.bit_depth),
                          exifItem: info.exif_left_out > 0 ? [] : exifBytes.isEmpty ? nil : exifBytes,
                          iccProfile: iccBytes.isEmpty ? nil : iccBytes)
    }

    /// The primary image's pixels, transforms applied unless `applyingTransformations` is false.
    public static func decode(_ content: PhotoContent, applyingTransformations: Bool = true)
        throws(PhotoError) -> Pixels
    {
        try HEIFItemLimits.check(content)
        var pixels = dossier_buffer()
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0
        var status = dossier_status()
        let result = content.withCInput { data, size, path in
            dossier_heif_decode(data, size, path, applyingTransformations ? 1 : 0, decodingThreads, &pixels, &width,
                                &height, &channels, &status)
        }
        let bytes = pixels.takeBytes()
        guard result == 0 else { throw status.error(format: formatName) }
        return Pixels(bytes: bytes, width: Int(width), height: Int(height), channels: Int(channels))
    }

    /// A JPEG of the primary image as displayed, at `quality`, with `exifPayload` (including
    /// `Exif\0\0`) as its APP1 and the image's ICC profile.
    public static func renderJPEG(_ content: PhotoContent, quality: Int, exifPayload: [UInt8]?) throws(PhotoError)
        -> (bytes: [UInt8], width: Int, height: Int)
    {
        try HEIFItemLimits.check(content)
        var output = dossier_buffer()
        var width: Int32 = 0, height: Int32 = 0
        var status = dossier_status()
        let result = content.withCInput { data, size, path in
            withOptionalBuffer(exifPayload) { exif in
                dossier_heif_render_jpeg(data, size, path, decodingThreads, Int32(quality), exif.baseAddress, exif.count,
                                         &output, &width, &height, &status)
            }
        }
        let bytes = output.takeBytes()
        guard result == 0 else { throw status.error(format: formatName) }
        return (bytes, Int(width), Int(height))
    }
}
