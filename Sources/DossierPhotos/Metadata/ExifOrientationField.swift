/// Where a TIFF-structured EXIF block keeps the main picture's Orientation value: two bytes in
/// IFD0, which can be rewritten where they lie, so every offset in the block (and in the file
/// around it) stays right.
struct ExifOrientationField: Equatable, Sendable {
    /// Offset of the value's two bytes from the start of the TIFF header.
    let offset: Int
    let bigEndian: Bool
    let value: Int

    static let tag: UInt16 = 0x0112
    static let shortType: UInt16 = 3

    /// Reads IFD0's entries; nil if the block has no well-formed SHORT Orientation entry.
    init?(tiff: [UInt8]) {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        func uint16(_ at: Int) -> UInt16? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return bigEndian ? UInt16(tiff[at]) << 8 | UInt16(tiff[at + 1]) : UInt16(tiff[at + 1]) << 8 | UInt16(tiff[at])
        }
        func uint32(_ at: Int) -> UInt32? {
            guard let high = uint16(bigEndian ? at : at + 2), let low = uint16(bigEndian ? at + 2 : at) else { return nil }
            return UInt32(high) << 16 | UInt32(low)
        }
        guard uint16(2) == 42, let ifd = uint32(4).map(Int.init), let count = uint16(ifd) else { return nil }
        for index in 0..<Int(count) {
            let entry = ifd + 2 + index * 12
            guard let tag = uint16(entry), let type = uint16(entry + 2), let values = uint32(entry + 4) else { return nil }
            guard tag == ExifOrientationField.tag else { continue }
            guard type == ExifOrientationField.shortType, values == 1, let value = uint16(entry + 8) else { return nil }
            self.offset = entry + 8
            self.bigEndian = bigEndian
            self.value = Int(value)
            return
        }
        return nil
    }

    /// The two bytes that say "upright" (1) in the block's byte order.
    var uprightBytes: [UInt8] { bigEndian ? [0, 1] : [1, 0] }
}
