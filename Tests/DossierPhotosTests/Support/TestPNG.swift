import CImageShims
import DossierPhotos
import Testing

/// Builds PNGs for tests and reads their samples back, through the same libpng the product uses.
enum TestPNG {
    struct Format: CustomTestStringConvertible, Sendable {
        let colorType: Int
        let bitDepth: Int
        let interlaced: Bool

        var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }
        var bytesPerPixel: Int { channels * (bitDepth == 16 ? 2 : 1) }
        var testDescription: String { "colour type \(colorType), \(bitDepth)-bit\(interlaced ? ", interlaced" : "")" }
    }

    /// Deterministic samples that use the whole range of the format.
    static func samples(width: Int, height: Int, format: Format, paletteEntries: Int = 0) -> TestPicture {
        let limit = format.colorType == 3 ? paletteEntries : (format.bitDepth >= 8 ? 256 : 1 << format.bitDepth)
        var pixels: [UInt8] = []
        for index in 0..<(width * height * format.bytesPerPixel) {
            pixels.append(UInt8((index * 37 + index / 7 * 11) % limit))
        }
        return TestPicture(width: width, height: height, channels: format.bytesPerPixel, pixels: pixels)
    }

    static func encode(_ picture: TestPicture, format: Format, palette: [UInt8]? = nil, exif: [UInt8]? = nil,
                       text: (key: String, value: String)? = nil) throws -> [UInt8]
    {
        var output = dossier_buffer()
        var status = dossier_status()
        let result = picture.pixels.withUnsafeBufferPointer { pixels in
            optional(palette) { palette in
                optional(exif) { exif in
                    dossier_png_encode_raw(pixels.baseAddress, Int32(picture.width), Int32(picture.height),
                                           Int32(format.bitDepth), Int32(format.colorType), format.interlaced ? 1 : 0,
                                           palette.baseAddress, Int32(palette.count / 3), exif.baseAddress, exif.count,
                                           text?.key, text?.value, &output, &status)
                }
            }
        }
        defer { dossier_buffer_free(&output) }
        guard result == 0 else { throw TestJPEG.Failure(description: "PNG encode failed: \(status.code)") }
        return Array(UnsafeBufferPointer(start: output.data, count: output.size))
    }

    static func decode(_ bytes: [UInt8]) throws -> (picture: TestPicture, info: dossier_png_info) {
        var output = dossier_buffer()
        var status = dossier_status()
        var info = dossier_png_info()
        var pixelBytes: Int32 = 0
        let result = bytes.withUnsafeBufferPointer {
            dossier_png_decode_raw($0.baseAddress, $0.count, &output, &info, &pixelBytes, &status)
        }
        defer { dossier_buffer_free(&output) }
        guard result == 0 else { throw TestJPEG.Failure(description: "PNG decode failed: \(status.code)") }
        let pixels = Array(UnsafeBufferPointer(start: output.data, count: output.size))
        return (TestPicture(width: Int(info.width), height: Int(info.height), channels: Int(pixelBytes), pixels: pixels), info)
    }

    /// Whether a chunk of this type appears in the file, and with these bytes in it.
    static func containsChunk(_ type: String, containing needle: [UInt8], in bytes: [UInt8]) -> Bool {
        var position = 8
        while position + 12 <= bytes.count {
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8
                | Int(bytes[position + 3])
            let chunkType = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            let end = min(bytes.count, position + 8 + length)
            if chunkType == type, Array(bytes[(position + 8)..<end]).firstRange(of: needle) != nil { return true }
            position += 12 + length
        }
        return false
    }

    private static func optional<R>(_ bytes: [UInt8]?, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let bytes else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return bytes.withUnsafeBufferPointer(body)
    }
}
