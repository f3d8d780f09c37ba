/// A record's stable id: the first 64 bits of SHA-256 over what makes an entry the same entry
/// (`Record.id(subject:date:kind:text:)`), written as 16 hex digits. Kept as a number, because
/// merging and deduplication compare ids millions of times.
public struct RecordID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }

    /// From its 16 hex digits (either case); nil for anything else.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 16, let value = UInt64(hex, radix: 16) else { return nil }
        self.value = value
    }

    public var hex: String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 { buffer[index] = RecordID.digit(value, index) }
            return 16
        }
    }

    public var description: String { hex }

    /// Writes the 16 hex digits into a line being encoded.
    func writeHex(to writer: inout ByteWriter) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            for index in 0..<16 { digits[index] = RecordID.digit(value, index) }
            writer.write(UnsafeBufferPointer(digits))
        }
    }

    private static func digit(_ value: UInt64, _ index: Int) -> UInt8 {
        let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0x0F
        return nibble < 10 ? 48 + nibble : 87 + nibble
    }

    public static func < (lhs: RecordID, rhs: RecordID) -> Bool { lhs.value < rhs.value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = RecordID(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a record id: \(text)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
