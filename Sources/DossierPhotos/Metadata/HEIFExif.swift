/// A HEIF file's EXIF item: the TIFF block inside it, and where that block lies in the file.
///
/// HEIF stores EXIF as a 4-byte big-endian offset to the TIFF header, then the block (usually
/// offset 0; 6 when an `Exif\0\0` prefix was kept). Some writers leave the offset out and start
/// with the TIFF header itself (the Nokia conformance file C034), so a block that starts with
/// `MM\0*` or `II*\0` is read as one.
struct HEIFExif: Sendable {
    /// The TIFF-structured block, as the other photo formats hand it over.
    let tiff: [UInt8]
    /// Where the item's TIFF header starts within the item's bytes.
    let tiffStart: Int

    init?(item: [UInt8]) {
        if item.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) || item.starts(with: [0x49, 0x49, 0x2A, 0x00]) {
            tiffStart = 0
        } else {
            guard item.count >= 4 else { return nil }
            let offset = Int(UInt32(bigEndianBytes: item[0..<4]))
            guard offset <= item.count - 4 - 8 else { return nil }
            tiffStart = 4 + offset
        }
        tiff = Array(item[tiffStart...])
        guard tiff.starts(with: [0x4D, 0x4D]) || tiff.starts(with: [0x49, 0x49]) else { return nil }
    }

    /// The file offset of byte `offset` of the item, given the item's extents in the file.
    static func fileOffset(of offset: Int, in extents: [Range<Int64>]) -> Int64? {
        var remaining = Int64(offset)
        for extent in extents {
            if remaining < Int64(extent.count) { return extent.lowerBound + remaining }
            remaining -= Int64(extent.count)
        }
        return nil
    }
}
