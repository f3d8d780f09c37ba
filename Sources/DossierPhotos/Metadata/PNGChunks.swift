/// Walks a PNG's chunks to replace its eXIf chunk's payload, keeping every other byte as it was.
enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The file with the eXIf chunk's data replaced by `exif` (and its CRC recomputed).
    static func replacingExif(in bytes: [UInt8], with exif: [UInt8]) -> [UInt8] {
        guard bytes.starts(with: signature) else { return bytes }
        var position = signature.count
        while position + 12 <= bytes.count {
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16
                | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let type = Array(bytes[(position + 4)..<(position + 8)])
            let end = position + 12 + length
            guard length >= 0, end <= bytes.count else { return bytes }
            if type == Array("eXIf".utf8) {
                var chunk = bigEndian(UInt32(exif.count)) + type + exif
                chunk += bigEndian(CRC32.checksum(type + exif))
                return Array(bytes[..<position]) + chunk + Array(bytes[end...])
            }
            if type == Array("IEND".utf8) { break }
            position = end
        }
        return bytes
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
