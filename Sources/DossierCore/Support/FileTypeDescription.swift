/// Names what a file probably is from its first bytes, so a skipped file is reported with its
/// type ("MP4 or QuickTime video") rather than just "unknown".
public enum FileTypeDescription {
    public static func describe(head: [UInt8]) -> String {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
        if head.isEmpty { return "an empty file" }
        if starts(ascii("ftyp"), at: 4) {
            let brand = head.count >= 12 ? String(decoding: head[8..<12], as: UTF8.self) : ""
            if ["heic", "heix", "mif1", "msf1", "heim", "heis", "hevc"].contains(brand) { return "a HEIC/HEIF image" }
            if brand == "avif" { return "an AVIF image" }
            return "an MP4 or QuickTime video"
        }
        if starts(ascii("GIF8")) { return "a GIF image" }
        if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { return "a WebP image" }
        if starts(ascii("RIFF")) && starts(ascii("AVI "), at: 8) { return "an AVI video" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "a TIFF or camera raw image" }
        if starts(ascii("BM")) { return "a BMP image" }
        if starts(ascii("%PDF")) { return "a PDF document" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive (or an Office document)" }
        if starts([0xD0, 0xCF, 0x11, 0xE0]) { return "an old Office document" }
        if starts([0xFF, 0xD8]) { return "a JPEG without a valid start" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "a PNG without a valid signature" }
        let sample = head.prefix(512)
        if !sample.contains(0) { return "a text file" }
        return "data of an unknown type"
    }
}
