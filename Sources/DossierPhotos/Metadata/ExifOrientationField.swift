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
        guard let structure = TIFFStructure(tiff), let directory = structure.firstDirectory,
              let entry = structure.entries(at: directory)?.first(where: { $0.tag == ExifOrientationField.tag }),
              entry.type == ExifOrientationField.shortType, entry.count == 1,
              let value = structure.uint16(at: entry.valueFieldOffset)
        else { return nil }
        offset = entry.valueFieldOffset
        bigEndian = structure.bigEndian
        self.value = Int(value)
    }

    /// The two bytes that say "upright" (1) in the block's byte order.
    var uprightBytes: [UInt8] { bigEndian ? [0, 1] : [1, 0] }
}
