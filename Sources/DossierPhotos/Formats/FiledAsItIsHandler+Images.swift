import DossierCore

extension FiledAsItIsHandler {
    /// WebP (messengers, Android downloads), GIF (animated ones kept whole), BMP, TIFF
    /// (scanners) and JPEG XL. WebP, TIFF and JPEG XL are dated by their EXIF. Browsers show WebP
    /// and GIF; the others get a rendition made by libvips (`VipsCodec`), upright.
    public static let images = FiledAsItIsHandler(
        name: "image",
        summary: "WebP, GIF, BMP, TIFF and JPEG XL images (recognised by their signatures), filed as they are, "
            + "with a rendition beside each TIFF, BMP and JPEG XL",
        formats: [.webp, .gif, .bmp, .tiff, .jxl],
        recognise: { head in
            if head.has("RIFF") && head.has("WEBP", at: 8) { return .webp }
            if head.has("GIF87a") || head.has("GIF89a") { return .gif }
            // `BM`, reserved bytes zero, and a known DIB header size.
            if head.has("BM"), head.count > 18, head[6..<10].allSatisfy({ $0 == 0 }),
               [12, 40, 52, 56, 108, 124].contains(Int(head[14]) | Int(head[15]) << 8) {
                return .bmp
            }
            if let tiff = TIFFStructure(Array(head.prefix(16))), tiff.firstDirectory.map({ $0 >= 8 }) == true { return .tiff }
            // A bare codestream, or the ISO container (a `JXL ` box first).
            if head.has([0xFF, 0x0A]) || head.has([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
                return .jxl
            }
            return nil
        },
        exif: { format, bytes in
            switch format {
            case .webp: return FiledAsItIsHandler.webpExif(bytes)
            case .tiff: return bytes
            case .jxl: return FiledAsItIsHandler.jxlExif(bytes)
            default: return nil
            }
        },
        render: { photo in try VipsCodec.rendition(of: photo.content, format: photo.format.displayName, quality: 90) })

    /// A WebP's `EXIF` chunk (RIFF chunks: a four-character code, a little-endian size, the data
    /// padded to an even length), without the `Exif\0\0` some writers put in front.
    static func webpExif(_ bytes: [UInt8]) -> [UInt8]? {
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let start = offset + 8
            guard size >= 0, size <= bytes.count - start else { return nil }
            if bytes[offset..<(offset + 4)].elementsEqual("EXIF".utf8) {
                let chunk = bytes[start..<(start + size)]
                return Array(chunk.starts(with: JPEGSegments.exifPrefix) ? chunk.dropFirst(JPEGSegments.exifPrefix.count) : chunk)
            }
            offset = start + size + (size % 2)
        }
        return nil
    }

    /// A JPEG XL container's `Exif` box: a four-byte offset to the TIFF header, then the TIFF
    /// structure (ISO boxes: a big-endian size, which counts its own eight bytes, and a type).
    static func jxlExif(_ bytes: [UInt8]) -> [UInt8]? {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, size <= bytes.count - offset else { return nil }
            if bytes[(offset + 4)..<(offset + 8)].elementsEqual("Exif".utf8), size >= 12 {
                let skip = bytes[(offset + 8)..<(offset + 12)].reduce(0) { $0 << 8 | Int($1) }
                let start = offset + 12 + skip
                return start < offset + size ? Array(bytes[start..<(offset + size)]) : nil
            }
            offset += size
        }
        return nil
    }
}
