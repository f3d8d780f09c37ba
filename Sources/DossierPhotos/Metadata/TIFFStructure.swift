/// The entries of a TIFF-structured EXIF block, read straight from its bytes in its byte order:
/// enough to find a value's exact place (to rewrite it in place) or a maker note's bytes.
struct TIFFStructure {
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        /// Where the entry's 4-byte value field lies in the block.
        let valueFieldOffset: Int
    }

    let bytes: [UInt8]
    let bigEndian: Bool

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        self.bytes = bytes
        guard uint16(at: 2) == 42 else { return nil }
    }

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return bigEndian ? UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
                         : UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset])
    }

    func uint32(at offset: Int) -> UInt32? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
    }

    /// IFD0's offset.
    var firstDirectory: Int? { uint32(at: 4).map(Int.init) }

    /// The entries of the directory at `offset`; nil if it does not fit the block.
    func entries(at offset: Int) -> [Entry]? {
        guard let count = uint16(at: offset) else { return nil }
        var entries: [Entry] = []
        for index in 0..<Int(count) {
            let start = offset + 2 + index * 12
            guard let tag = uint16(at: start), let type = uint16(at: start + 2), let values = uint32(at: start + 4)
            else { return nil }
            entries.append(Entry(tag: tag, type: type, count: values, valueFieldOffset: start + 8))
        }
        return entries
    }

    /// Where an entry's values lie: in its value field when they fit in 4 bytes, else at the
    /// offset the field holds. Nil when they lie outside the block.
    func valueRange(of entry: Entry) -> Range<Int>? {
        let unit: Int
        switch entry.type {
        case 1, 2, 6, 7: unit = 1
        case 3, 8: unit = 2
        case 4, 9, 11, 13: unit = 4
        case 5, 10, 12: unit = 8
        default: return nil
        }
        let (length, overflow) = Int(entry.count).multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        let start = length <= 4 ? entry.valueFieldOffset : uint32(at: entry.valueFieldOffset).map(Int.init)
        guard let start, start + length <= bytes.count else { return nil }
        return start..<start + length
    }

    /// Where the image data its directories point at ends (strips, tiles, an embedded JPEG),
    /// following IFD0's chain and every SubIFD (a raw's full-size data lies in one): past the
    /// file's end, the file was cut short. Nil when no directory names any.
    func imageDataEnd() -> Int? {
        var end: Int?
        var pending = firstDirectory.map { [$0] } ?? []
        var seen: Set<Int> = []
        while let directory = pending.popLast(), seen.count < 64 {
            guard seen.insert(directory).inserted, let entries = entries(at: directory) else { continue }
            let values = { (tag: UInt16) -> [Int] in
                guard let entry = entries.first(where: { $0.tag == tag }), let range = valueRange(of: entry) else { return [] }
                switch entry.type {
                case 3: return stride(from: range.lowerBound, to: range.upperBound, by: 2).compactMap { uint16(at: $0).map(Int.init) }
                case 4, 13: return stride(from: range.lowerBound, to: range.upperBound, by: 4).compactMap { uint32(at: $0).map(Int.init) }
                default: return []
                }
            }
            for (offsets, counts) in [(UInt16(273), UInt16(279)), (324, 325), (513, 514)] {
                for (offset, count) in zip(values(offsets), values(counts)) where count > 0 {
                    end = max(end ?? 0, offset + count)
                }
            }
            pending += values(330).filter { $0 >= 8 }
            if let next = uint32(at: directory + 2 + entries.count * 12), next > 0 { pending.append(Int(next)) }
        }
        return end
    }
}
