/// Reads a box's payload field by field, big-endian, refusing to read past its end.
struct ByteCursor {
    let bytes: [UInt8]
    let box: String
    private(set) var offset: Int

    init(_ bytes: [UInt8], box: String, offset: Int = 0) {
        self.bytes = bytes
        self.box = box
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    mutating func skip(_ count: Int) throws(ContainerError) {
        guard count >= 0, count <= remaining else { throw shortError }
        offset += count
    }

    mutating func take(_ count: Int) throws(ContainerError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw shortError }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func uint8() throws(ContainerError) -> UInt8 { try take(1).first! }
    mutating func uint16() throws(ContainerError) -> UInt16 { UInt16(bigEndianBytes: try take(2)) }
    mutating func uint32() throws(ContainerError) -> UInt32 { UInt32(bigEndianBytes: try take(4)) }
    mutating func uint64() throws(ContainerError) -> UInt64 { UInt64(bigEndianBytes: try take(8)) }

    /// An unsigned field of 0, 4 or 8 bytes (the sizes `iloc` declares), or 2 and 1 elsewhere.
    mutating func unsigned(bytes width: Int) throws(ContainerError) -> UInt64 {
        switch width {
        case 0: return 0
        case 1: return UInt64(try uint8())
        case 2: return UInt64(try uint16())
        case 4: return UInt64(try uint32())
        case 8: return try uint64()
        default: throw ContainerError.malformed("'\(box)' declares a \(width)-byte field")
        }
    }

    mutating func fourCC() throws(ContainerError) -> String { ISOBoxReader.fourCC(try take(4)) }

    private var shortError: ContainerError { .malformed("'\(box)' is shorter than its fields") }
}
