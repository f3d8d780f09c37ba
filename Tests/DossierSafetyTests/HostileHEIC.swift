/// A real HEIC made hostile: the `iloc` entry of its first item of a given type rewritten to claim
/// the same bytes `repeats` times over (libheif takes up to 32 extents an item, each anywhere in
/// the file), those bytes a `free` box of `padding` zeros appended to the file. Every other item
/// keeps its bytes: their extents move by what the longer `iloc` adds to the `meta` box before
/// them. Read with its own few lines rather than Dossier's readers, so a fault there cannot hide.
enum HostileHEIC {
    struct Unexpected: Error, CustomStringConvertible {
        let description: String
    }

    /// One `iloc` entry: the item, how its bytes are found, and its extents (index, offset, length).
    private struct Entry {
        var id: UInt32
        var constructionMethod: UInt16
        var dataReference: UInt16
        var base: UInt64
        var extents: [(index: UInt64, offset: UInt64, length: UInt64)]
    }

    static func repeatingItem(ofType type: String, in heic: [UInt8], repeats: Int, padding: Int) throws -> [UInt8] {
        let meta = try box("meta", in: heic, from: 0, to: heic.count)
        let iinf = try box("iinf", in: heic, from: meta.payload + 4, to: meta.end)
        let iloc = try box("iloc", in: heic, from: meta.payload + 4, to: meta.end)
        let target = try firstItem(ofType: type, in: Array(heic[iinf.payload..<iinf.end]))

        var reader = Reader(bytes: Array(heic[iloc.payload..<iloc.end]))
        let version = try reader.integer(1)
        let flags = try reader.integer(3)
        let sizes = try reader.integer(1), sizes2 = try reader.integer(1)
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0xF), baseSize = Int(sizes2 >> 4)
        let indexSize = version >= 1 ? Int(sizes2 & 0xF) : 0
        let count = try reader.integer(version < 2 ? 2 : 4)
        var entries: [Entry] = []
        for _ in 0..<count {
            let id = UInt32(try reader.integer(version < 2 ? 2 : 4))
            let method = version >= 1 ? UInt16(try reader.integer(2)) : 0
            let reference = UInt16(try reader.integer(2))
            let base = try reader.integer(baseSize)
            var extents: [(index: UInt64, offset: UInt64, length: UInt64)] = []
            for _ in 0..<(try reader.integer(2)) {
                extents.append((try reader.integer(indexSize), try reader.integer(offsetSize), try reader.integer(lengthSize)))
            }
            entries.append(Entry(id: id, constructionMethod: method & 0xF, dataReference: reference, base: base,
                                 extents: extents))
        }
        guard let targetIndex = entries.firstIndex(where: { $0.id == target }), offsetSize >= 4, lengthSize >= 4 else {
            throw Unexpected(description: "item \(target) has no 'iloc' entry with 4-byte offsets and lengths")
        }

        let extentSize = indexSize + offsetSize + lengthSize
        let added = (repeats - entries[targetIndex].extents.count) * extentSize
        // Every byte after the old iloc moves by `added`: the bytes of items in the file move with it.
        for position in entries.indices where entries[position].constructionMethod == 0 {
            if baseSize > 0, entries[position].base >= UInt64(iloc.end) {
                entries[position].base += UInt64(added)
            } else {
                for extent in entries[position].extents.indices
                where entries[position].base + entries[position].extents[extent].offset >= UInt64(iloc.end) {
                    entries[position].extents[extent].offset += UInt64(added)
                }
            }
        }
        let zeros = UInt64(heic.count + added + 8)
        entries[targetIndex].constructionMethod = 0
        entries[targetIndex].base = 0
        entries[targetIndex].extents = Array(repeating: (index: 0, offset: zeros, length: UInt64(padding)), count: repeats)

        var payload = bigEndian(version, 1) + bigEndian(flags, 3) + bigEndian(sizes, 1) + bigEndian(sizes2, 1)
            + bigEndian(count, version < 2 ? 2 : 4)
        for entry in entries {
            payload += bigEndian(UInt64(entry.id), version < 2 ? 2 : 4)
            if version >= 1 { payload += bigEndian(UInt64(entry.constructionMethod), 2) }
            payload += bigEndian(UInt64(entry.dataReference), 2) + bigEndian(entry.base, baseSize)
                + bigEndian(UInt64(entry.extents.count), 2)
            for extent in entry.extents {
                payload += bigEndian(extent.index, indexSize) + bigEndian(extent.offset, offsetSize)
                    + bigEndian(extent.length, lengthSize)
            }
        }
        let newIloc = bigEndian(UInt64(payload.count + 8), 4) + Array("iloc".utf8) + payload
        guard newIloc.count == iloc.end - iloc.start + added else {
            throw Unexpected(description: "the rewritten 'iloc' is \(newIloc.count) bytes, not \(iloc.end - iloc.start + added)")
        }
        var hostile = Array(heic[..<iloc.start]) + newIloc + Array(heic[iloc.end...])
        hostile.replaceSubrange(meta.start..<meta.start + 4, with: bigEndian(UInt64(meta.end - meta.start + added), 4))
        hostile += bigEndian(UInt64(padding + 8), 4) + Array("free".utf8) + [UInt8](repeating: 0, count: padding)
        return hostile
    }

    /// A box with a 32-bit size among the boxes from `start` to `end`.
    private static func box(_ type: String, in bytes: [UInt8], from start: Int, to end: Int) throws
        -> (start: Int, payload: Int, end: Int)
    {
        var offset = start
        while offset + 8 <= end {
            var header = Reader(bytes: Array(bytes[offset..<offset + 4]))
            let size = Int(try header.integer(4))
            guard size >= 8, offset + size <= end else { break }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type {
                return (offset, offset + 8, offset + size)
            }
            offset += size
        }
        throw Unexpected(description: "no '\(type)' box")
    }

    /// The id of the first `infe` (version 2 or 3) of `type`.
    private static func firstItem(ofType type: String, in iinf: [UInt8]) throws -> UInt32 {
        var reader = Reader(bytes: iinf)
        let version = try reader.integer(1)
        _ = try reader.integer(3)
        let count = try reader.integer(version == 0 ? 2 : 4)
        for _ in 0..<count {
            let size = Int(try reader.integer(4))
            let entry = try reader.take(size - 4)
            let entryVersion = entry[4]
            guard entryVersion >= 2 else { continue }
            var fields = Reader(bytes: Array(entry[8...]))
            let id = UInt32(try fields.integer(entryVersion == 2 ? 2 : 4))
            _ = try fields.integer(2)
            if String(decoding: try fields.take(4), as: UTF8.self) == type { return id }
        }
        throw Unexpected(description: "no '\(type)' item")
    }

    private static func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func take(_ count: Int) throws -> [UInt8] {
            guard count >= 0, offset + count <= bytes.count else { throw Unexpected(description: "a box ends early") }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func integer(_ width: Int) throws -> UInt64 {
            try take(width).reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
