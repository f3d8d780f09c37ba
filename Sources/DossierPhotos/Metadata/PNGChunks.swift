import CImageShims
import DossierCore

/// Walks a PNG's chunks to replace its eXIf chunk's payload, keeping every other byte as it was.
enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The file with the eXIf chunk's data replaced by `exif` (and its CRC recomputed).
    static func replacingExif(in bytes: [UInt8], with exif: [UInt8]) -> [UInt8] {
        let found = exifChunk(size: bytes.count) { offset, count in
            Array(bytes[min(offset, bytes.count)..<min(offset + count, bytes.count)])
        }
        guard let range = found else { return bytes }
        return Array(bytes[..<range.lowerBound]) + chunk(exif) + Array(bytes[range.upperBound...])
    }

    /// A large photo's file with the eXIf chunk's data replaced, in a new scratch file.
    static func replacingExif(in file: ScratchFile, with exif: [UInt8]) throws -> ScratchFile {
        var failure: Error?
        let found = exifChunk(size: Int(file.size)) { offset, count in
            do { return try file.read(at: Int64(offset), count: count) } catch { failure = error; return [] }
        }
        if let failure { throw failure }
        guard let range = found else { return file }
        return try file.replacing(Int64(range.lowerBound)..<Int64(range.upperBound), with: chunk(exif))
    }

    /// Where the eXIf chunk (length, type, data and CRC) lies in a PNG of `size` bytes whose bytes
    /// `read(offset, count)` gives; nil when there is none, or the chunks do not add up.
    private static func exifChunk(size: Int, read: (Int, Int) -> [UInt8]) -> Range<Int>? {
        guard read(0, signature.count) == signature else { return nil }
        var position = signature.count
        while position + 12 <= size {
            let header = read(position, 8)
            guard header.count == 8 else { return nil }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            let type = Array(header[4..<8])
            let end = position + 12 + length
            guard end <= size else { return nil }
            if type == Array("eXIf".utf8) { return position..<end }
            if type == Array("IEND".utf8) { return nil }
            position = end
        }
        return nil
    }

    /// An eXIf chunk holding `exif`.
    private static func chunk(_ exif: [UInt8]) -> [UInt8] {
        let type = Array("eXIf".utf8)
        return bigEndian(UInt32(exif.count)) + type + exif + bigEndian(CRC32.checksum(type + exif))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The XMP packet of an `iTXt` chunk keyed `XML:com.adobe.xmp` (keyword, NUL, compression
    /// flag and method, language tag, NUL, translated keyword, NUL, text, zlib-compressed when
    /// the flag says, as some tools write it); nil when there is none or it does not inflate.
    static func xmpPacket(in bytes: [UInt8]) -> String? {
        let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
        var position = 8
        while position + 12 <= bytes.count {
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8
                | Int(bytes[position + 3])
            let start = position + 8
            guard length >= 0, length <= bytes.count - start - 4 else { return nil }
            let data = bytes[start..<(start + length)]
            if bytes[(position + 4)..<(position + 8)].elementsEqual("iTXt".utf8), data.starts(with: keyword) {
                var cursor = data.startIndex + keyword.count
                guard cursor + 2 <= data.endIndex, data[cursor] <= 1, data[cursor + 1] == 0 else { return nil }
                let compressed = data[cursor] == 1
                cursor += 2
                for _ in 0..<2 {
                    guard let end = data[cursor...].firstIndex(of: 0) else { return nil }
                    cursor = end + 1
                }
                guard compressed else { return String(decoding: data[cursor...], as: UTF8.self) }
                return inflated(Array(data[cursor...])).map { String(decoding: $0, as: UTF8.self) }
            }
            if bytes[(position + 4)..<(position + 8)].elementsEqual("IEND".utf8) { return nil }
            position = start + length + 4
        }
        return nil
    }

    /// The most an XMP packet is taken to inflate to: real ones are a few KiB.
    static let maximumXMP = 4 << 20

    private static func inflated(_ bytes: [UInt8]) -> [UInt8]? {
        var output = dossier_buffer()
        var status = dossier_status()
        let result = bytes.withUnsafeBufferPointer { dossier_inflate($0.baseAddress, $0.count, maximumXMP, &output, &status) }
        let inflated = output.takeBytes()
        return result == 0 ? inflated : nil
    }
}
