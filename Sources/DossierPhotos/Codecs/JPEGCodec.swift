import CImageShims
import DossierCore
import Foundation

/// Swift's door to libjpeg-turbo, through the C shims that hold its setjmp error handling.
public enum JPEGCodec {
    public struct Info: Equatable, Sendable {
        public let width: Int
        public let height: Int
        public let components: Int
        /// Pixels per MCU: the grain of a lossless transform.
        public let mcuWidth: Int
        public let mcuHeight: Int
        public let progressive: Bool
    }

    public enum Path: Sendable {
        /// DCT coefficients moved: no generation loss.
        case lossless
        /// Decoded, turned and re-encoded with the source's tables and sampling.
        case reencoded
    }

    /// A picture turned upright: its bytes, or the scratch file holding them.
    public struct Turned<Output: Sendable>: Sendable {
        public let output: Output
        public let path: Path
        public let warning: String?
    }

    static let formatName = "JPEG"

    public static func info(_ bytes: [UInt8]) throws(PhotoError) -> Info {
        var info = dossier_jpeg_info()
        var status = dossier_status()
        let result = bytes.withUnsafeBufferPointer { dossier_jpeg_read_info($0.baseAddress, $0.count, &info, &status) }
        guard result == 0 else { throw status.error(format: formatName) }
        return Info(info)
    }

    /// The header facts of a large photo's file.
    public static func info(_ file: ScratchFile) throws -> Info {
        var info = dossier_jpeg_info()
        var status = dossier_status()
        let result = try file.withOpenFile { dossier_jpeg_read_info_file($0, &info, &status) }
        guard result == 0 else { throw status.error(format: formatName) }
        return Info(info)
    }

    /// Entropy-decodes the whole file; returns a tolerated warning, if any.
    @discardableResult
    public static func validate(_ bytes: [UInt8]) throws(PhotoError) -> String? {
        var status = dossier_status()
        let result = bytes.withUnsafeBufferPointer { dossier_jpeg_validate($0.baseAddress, $0.count, &status) }
        guard result == 0 else { throw status.error(format: formatName) }
        return status.warningText
    }

    /// Entropy-decodes a large photo's file, its coefficients kept in scratch files beside it.
    @discardableResult
    public static func validate(_ file: ScratchFile) throws -> String? {
        var status = dossier_status()
        let result = try file.folder.withOpenFolder { folder in
            try file.withOpenFile { dossier_jpeg_validate_file($0, folder, &status) }
        }
        guard result == 0 else { throw status.error(format: formatName) }
        return status.warningText
    }

    /// Whether a JPEG that `validate` refused still decodes as viewers show it (data that ends
    /// early filled in grey, a damaged scan): the decoder's first warning when it does; nil when
    /// it does not decode at all.
    public static func damageThatStillDecodes(_ bytes: [UInt8]) -> String? {
        var status = dossier_status()
        let result = bytes.withUnsafeBufferPointer { dossier_jpeg_decodes_damaged($0.baseAddress, $0.count, &status) }
        guard result == 0 else { return nil }
        return status.warningText
    }

    /// `damageThatStillDecodes` of a large photo's file.
    public static func damageThatStillDecodes(_ file: ScratchFile) -> String? {
        var status = dossier_status()
        guard let result = try? file.folder.withOpenFolder({ folder in
            try file.withOpenFile { dossier_jpeg_decodes_damaged_file($0, folder, &status) }
        }), result == 0 else { return nil }
        return status.warningText
    }

    public enum Mode: Int32, Sendable {
        case automatic = 0
        case losslessOnly = 1
        case pixelsOnly = 2
    }

    /// Turns the picture upright for `orientation`; `exifPayload` (with its `Exif\0\0` prefix)
    /// replaces the source's EXIF segment when given.
    public static func orient(_ bytes: [UInt8], orientation: Int, exifPayload: [UInt8]?,
                              mode: Mode = .automatic) throws(PhotoError) -> Turned<[UInt8]>
    {
        var output = dossier_buffer()
        var status = dossier_status()
        var lossless: Int32 = 0
        let result = bytes.withUnsafeBufferPointer { source in
            withOptionalBuffer(exifPayload) { exif in
                dossier_jpeg_orient(source.baseAddress, source.count, Int32(orientation),
                                    exif.baseAddress, exif.count, mode.rawValue, &output, &lossless, &status)
            }
        }
        guard result == 0 else {
            dossier_buffer_free(&output)
            throw status.error(format: formatName)
        }
        return Turned(output: output.takeBytes(), path: lossless != 0 ? .lossless : .reencoded,
                      warning: status.warningText)
    }

    /// `orient` for a large photo's file: written to a new scratch file beside it, coefficients
    /// and pixels kept in scratch files on the way.
    public static func orient(_ file: ScratchFile, orientation: Int, exifPayload: [UInt8]?,
                              mode: Mode = .automatic) throws -> Turned<ScratchFile>
    {
        var status = dossier_status()
        var lossless: Int32 = 0
        let turned = try file.folder.withOpenFolder { folder in
            try file.withOpenFile { source in
                try ScratchFile.written(in: file.folder) { output in
                    let result = withOptionalBuffer(exifPayload) { exif in
                        dossier_jpeg_orient_file(source, Int32(orientation), exif.baseAddress, exif.count, mode.rawValue,
                                                 output, folder, &lossless, &status)
                    }
                    guard result == 0 else { throw status.error(format: formatName) }
                }
            }
        }
        return Turned(output: turned, path: lossless != 0 ? .lossless : .reencoded, warning: status.warningText)
    }

    /// Decodes to interleaved 8-bit RGB.
    public static func decodeRGB(_ bytes: [UInt8]) throws(PhotoError) -> (pixels: [UInt8], width: Int, height: Int) {
        var output = dossier_buffer()
        var status = dossier_status()
        var width: Int32 = 0
        var height: Int32 = 0
        let result = bytes.withUnsafeBufferPointer {
            dossier_jpeg_decode_rgb($0.baseAddress, $0.count, &output, &width, &height, &status)
        }
        guard result == 0 else {
            dossier_buffer_free(&output)
            throw status.error(format: formatName)
        }
        return (output.takeBytes(), Int(width), Int(height))
    }

    /// Encodes interleaved 8-bit RGB as a 4:2:0 JPEG of `quality`.
    public static func encode(rgb: [UInt8], width: Int, height: Int, quality: Int) throws(PhotoError) -> [UInt8] {
        var output = dossier_buffer()
        var status = dossier_status()
        let result = rgb.withUnsafeBufferPointer {
            dossier_jpeg_encode_rgb($0.baseAddress, Int32(width), Int32(height), Int32(quality), 2, 2, nil, 0, nil, 0,
                                    &output, &status)
        }
        let bytes = output.takeBytes()
        guard result == 0 else { throw status.error(format: formatName) }
        return bytes
    }
}

extension JPEGCodec.Info {
    init(_ info: dossier_jpeg_info) {
        self.init(width: Int(info.width), height: Int(info.height), components: Int(info.components),
                  mcuWidth: Int(info.mcu_width), mcuHeight: Int(info.mcu_height), progressive: info.progressive != 0)
    }
}

/// Calls `body` with the bytes of `buffer`, or with an empty buffer (a NULL base address) for nil.
func withOptionalBuffer<R>(_ buffer: [UInt8]?, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    guard let buffer else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    return buffer.withUnsafeBufferPointer(body)
}

// MARK: - ShimStatus

extension dossier_status {
    /// The library's message, as a Swift string.
    var messageText: String { Self.text(of: message).trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The first tolerated warning, if any.
    var warningText: String? { warning_count > 0 ? Self.text(of: warning) : nil }

    /// The error for a failed call into the shims.
    func error(format: String) -> PhotoError {
        switch Int(code) {
        case Int(DOSSIER_ERR_LIMIT): return .tooLarge(format: format, message: messageText)
        case Int(DOSSIER_ERR_ENCODE), Int(DOSSIER_ERR_ARGUMENT): return .encodingFailed(format: format, message: messageText)
        default: return .corrupt(format: format, message: messageText)
        }
    }

    private static func text<T>(of tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension dossier_buffer {
    /// Copies the C buffer into Swift memory and frees it.
    mutating func takeBytes() -> [UInt8] {
        defer { dossier_buffer_free(&self) }
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}
