import DossierCore

extension FiledAsItIsHandler {
    /// WebP (messengers, Android downloads), GIF (animated ones kept whole), BMP and TIFF
    /// (scanners). WebP and TIFF are dated by their EXIF.
    public static let images = FiledAsItIsHandler(
        name: "image",
        summary: "WebP, GIF, BMP and TIFF images (recognised by their signatures), filed as they are",
        formats: [.webp, .gif, .bmp, .tiff],
        recognise: { head in
            if head.has("RIFF") && head.has("WEBP", at: 8) { return .webp }
            if head.has("GIF87a") || head.has("GIF89a") { return .gif }
            // `BM`, reserved bytes zero, and a known DIB header size.
            if head.has("BM"), head.count > 18, head[6..<10].allSatisfy({ $0 == 0 }),
               [12, 40, 52, 56, 108, 124].contains(Int(head[14]) | Int(head[15]) << 8) {
                return .bmp
            }
            if let tiff = TIFFStructure(Array(head.prefix(16))), tiff.firstDirectory.map({ $0 >= 8 }) == true { return .tiff }
            return nil
        },
        exif: { format, bytes in
            switch format {
            case .webp: return FiledAsItIsHandler.webpExif(bytes)
            case .tiff: return bytes
            default: return nil
            }
        },
        note: { format in
            format == .tiff || format == .bmp ? "filed byte for byte; no rendition is made for a \(format.displayName) yet" : nil
        })

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
}
