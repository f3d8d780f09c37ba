import CImageShims

/// A small valid PNG carrying zTXt chunks that each inflate to nearly 16 MiB of text (libpng's
/// CHUNK_MALLOC_MAX in the shim) from 105 KB of the file: one literal, then matches of 258 bytes
/// at distance 1 in a fixed-Huffman block, 13 bits for every 258 bytes.
enum HostilePNG {
    static func inflatingText(chunks: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0x80, count: 8 * 8 * 3)
        var output = dossier_buffer()
        var status = dossier_status()
        let result = dossier_png_encode_raw(&pixels, 8, 8, 8, 2, 0, nil, 0, nil, 0, nil, nil, &output, &status)
        precondition(result == 0, "the test PNG could not be encoded")
        defer { dossier_buffer_free(&output) }
        let png = Array(UnsafeBufferPointer(start: output.data, count: output.size))
        // 65 000 matches: 16 770 001 bytes of text, under 16 MiB with the keyword.
        let stream = zlibRun(of: UInt8(ascii: "A"), matches: 65_000)
        let text = (0..<chunks).flatMap { index in
            chunk("zTXt", Array("Comment \(index)".utf8) + [0, 0] + stream)
        }
        // After the signature and IHDR (8 + 25 bytes).
        return Array(png[..<33]) + text + Array(png[33...])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// A zlib stream of 1 + 258 x `matches` copies of `byte`.
    private static func zlibRun(of byte: UInt8, matches: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, width: 1)  // the last block
        bits.write(1, width: 2)  // fixed Huffman codes
        bits.writeCode(0x30 + UInt32(byte), width: 8)  // literals 0 to 143: 0x30 up, 8 bits
        for _ in 0..<matches {
            bits.writeCode(0xC5, width: 8)  // length 258: code 285, 8 bits from 0xC0 for 280
            bits.writeCode(0, width: 5)  // distance 1: code 0
        }
        bits.writeCode(0, width: 7)  // end of block: code 256
        let count = 1 + 258 * matches
        // Adler-32 of `count` copies of `byte`, in closed form.
        let a = (1 + count * Int(byte)) % 65521
        let b = (count + Int(byte) * (count * (count + 1) / 2 % 65521)) % 65521
        return [0x78, 0x01] + bits.bytes + bigEndian(UInt32(b << 16 | a))
    }

    /// Bits as DEFLATE packs them: least significant first, Huffman codes most significant first.
    private struct BitWriter {
        private var whole: [UInt8] = []
        private var pending: UInt32 = 0
        private var pendingCount = 0

        mutating func write(_ value: UInt32, width: Int) {
            for bit in 0..<width { push(value >> UInt32(bit) & 1) }
        }

        mutating func writeCode(_ code: UInt32, width: Int) {
            for bit in (0..<width).reversed() { push(code >> UInt32(bit) & 1) }
        }

        private mutating func push(_ bit: UInt32) {
            pending |= bit << UInt32(pendingCount)
            pendingCount += 1
            if pendingCount == 8 { flush() }
        }

        private mutating func flush() {
            whole.append(UInt8(pending))
            pending = 0
            pendingCount = 0
        }

        /// The bytes written, the last one's unused bits zero.
        var bytes: [UInt8] { pendingCount > 0 ? whole + [UInt8(pending)] : whole }
    }

    private static let crcTable: [UInt32] = (0..<256).map { (index: UInt32) in
        (0..<8).reduce(index) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(0xFFFF_FFFF) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
