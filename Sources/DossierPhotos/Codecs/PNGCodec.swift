import CImageShims
import DossierCore

/// Swift's door to libpng, through the C shims that hold its setjmp error handling.
public enum PNGCodec {
    public struct Inspection: Sendable {
        public let width: Int
        public let height: Int
        public let bitDepth: Int
        public let colorType: Int
        public let interlaced: Bool
        /// The tIME chunk (UTC, as the PNG specification has it).
        public let modificationTime: LocalDateTime?
        /// The eXIf chunk's raw TIFF payload.
        public let exif: [UInt8]?
        public let warning: String?
    }

    static let formatName = "PNG"

    /// Decodes every row and checks every chunk; returns what the importer needs.
    public static func inspect(_ bytes: [UInt8]) throws(PhotoError) -> Inspection {
        var info = dossier_png_info()
        var exif = dossier_buffer()
        var status = dossier_status()
        let result = bytes.withUnsafeBufferPointer {
            dossier_png_inspect($0.baseAddress, $0.count, &info, &exif, &status)
        }
        return try Inspection(result: result, info: info, exif: &exif, status: status)
    }

    /// Why a PNG `inspect` refused still decodes, when what is wrong is that its data ends early
    /// (viewers show its first rows): what is missing. Nil for any other fault.
    public static func damageThatStillDecodes(_ bytes: [UInt8]) -> String? {
        var status = dossier_status()
        let result = bytes.withUnsafeBufferPointer { dossier_png_decodes_damaged($0.baseAddress, $0.count, &status) }
        return result == 0 ? status.warningText : nil
    }

    /// `damageThatStillDecodes` of a large photo's file.
    public static func damageThatStillDecodes(_ file: ScratchFile) -> String? {
        var status = dossier_status()
        guard let result = try? file.withOpenFile({ dossier_png_decodes_damaged_file($0, &status) }) else { return nil }
        return result == 0 ? status.warningText : nil
    }

    /// `inspect` of a large photo's file.
    public static func inspect(_ file: ScratchFile) throws -> Inspection {
        var info = dossier_png_info()
        var exif = dossier_buffer()
        var status = dossier_status()
        let result = try file.withOpenFile { dossier_png_inspect_file($0, &info, &exif, &status) }
        return try Inspection(result: result, info: info, exif: &exif, status: status)
    }

    /// Turns the picture upright for `orientation` (2 to 8); `exif` (raw TIFF) replaces the eXIf chunk.
    public static func orient(_ bytes: [UInt8], orientation: Int, exif: [UInt8]?) throws(PhotoError) -> [UInt8] {
        var output = dossier_buffer()
        var status = dossier_status()
        let result = bytes.withUnsafeBufferPointer { source in
            withOptionalBuffer(exif) { exif in
                dossier_png_orient(source.baseAddress, source.count, Int32(orientation),
                                   exif.baseAddress, exif.count, &output, &status)
            }
        }
        guard result == 0 else {
            dossier_buffer_free(&output)
            throw status.error(format: formatName)
        }
        return output.takeBytes()
    }

    /// An 8-bit RGBA picture (rows of width x 4 bytes) as a PNG, with `exif` (raw TIFF) as its
    /// eXIf chunk: a HEIF with alpha's rendition.
    public static func encodeRGBA(_ pixels: [UInt8], width: Int, height: Int, exif: [UInt8]?)
        throws(PhotoError) -> [UInt8]
    {
        var output = dossier_buffer()
        var status = dossier_status()
        let result = pixels.withUnsafeBufferPointer { pixels in
            withOptionalBuffer(exif) { exif in
                dossier_png_encode_raw(pixels.baseAddress, Int32(width), Int32(height), 8, 6, 0, nil, 0,
                                       exif.baseAddress, exif.count, nil, nil, &output, &status)
            }
        }
        guard result == 0 else {
            dossier_buffer_free(&output)
            throw status.error(format: formatName)
        }
        return output.takeBytes()
    }

    /// `orient` for a large photo's file: written to a new scratch file beside it, its pixels kept
    /// in scratch files on the way.
    public static func orient(_ file: ScratchFile, orientation: Int, exif: [UInt8]?) throws -> ScratchFile {
        var status = dossier_status()
        return try file.folder.withOpenFolder { folder in
            try file.withOpenFile { source in
                try ScratchFile.written(in: file.folder) { output in
                    let result = withOptionalBuffer(exif) { exif in
                        dossier_png_orient_file(source, Int32(orientation), exif.baseAddress, exif.count, output, folder,
                                                &status)
                    }
                    guard result == 0 else { throw status.error(format: formatName) }
                }
            }
        }
    }
}

extension PNGCodec.Inspection {
    /// What a call to inspect gave; frees the C buffer `exif`.
    fileprivate init(result: Int32, info: dossier_png_info, exif: inout dossier_buffer, status: dossier_status)
        throws(PhotoError)
    {
        let formatName = PNGCodec.formatName
        let exifBytes = exif.takeBytes()
        guard result == 0 else { throw status.error(format: formatName) }
        let time = info.has_time != 0
            ? LocalDateTime(year: Int(info.year), month: Int(info.month), day: Int(info.day),
                            hour: Int(info.hour), minute: Int(info.minute), second: Int(info.second))
            : nil
        self.init(width: Int(info.width), height: Int(info.height), bitDepth: Int(info.bit_depth),
                  colorType: Int(info.color_type), interlaced: info.interlaced != 0,
                  modificationTime: time, exif: exifBytes.isEmpty ? nil : exifBytes, warning: status.warningText)
    }
}
