/// Checks UTF-8 in place, without building a `String`: readers that work on a line's bytes (CSV)
/// need to know the bytes are valid text, not a copy of them. Logs and exports are mostly ASCII,
/// so ASCII is skipped eight bytes at a time; the rest follows the well-formed sequences of the
/// Unicode Standard (table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF).
enum UTF8Validation {
    /// Whether `bytes` are well-formed UTF-8, and whether they are all ASCII.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> (valid: Bool, ascii: Bool) {
        guard let base = bytes.baseAddress else { return (true, true) }
        let count = bytes.count
        var index = 0
        var ascii = true
        while index < count {
            if index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let highs = word & 0x8080_8080_8080_8080
                if highs == 0 {
                    index += 8
                    continue
                }
                // Straight to the first byte that is not ASCII: the lowest set bit, the word read little-endian.
                index += highs.trailingZeroBitCount >> 3
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            ascii = false
            // Hangul and most CJK, a Korean log's usual text: three bytes after a lead of E1...EC
            // or EE...EF, whose second byte may be any continuation byte: taken in one step, as
            // Korean notes are mostly such sequences (docs/performance.md, "UTF8Validation").
            if lead &- 0xE1 < 0x0F, lead != 0xED, index + 3 <= count,
               base[index + 1] & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80 {
                index += 3
                continue
            }
            guard let length = sequenceLength(base, index, count) else { return (false, false) }
            index += length
        }
        return (true, ascii)
    }

    /// The length of the well-formed multi-byte sequence at `index`, or nil if it is not one.
    private static func sequenceLength(_ base: UnsafePointer<UInt8>, _ index: Int, _ count: Int) -> Int? {
        let lead = base[index]
        let length: Int
        // The second byte's range depends on the lead; later bytes are always 80...BF.
        let second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: length = 2; second = 0x80...0xBF
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; second = 0x80...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4; second = 0x80...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return nil
        }
        guard index + length <= count, second.contains(base[index + 1]) else { return nil }
        for offset in 2..<max(2, length) where base[index + offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}
