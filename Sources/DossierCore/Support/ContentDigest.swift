import Crypto

/// A SHA-256 digest of file contents: the identity used for deduplication.
public struct ContentDigest: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// A digest already computed (32 bytes).
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(of data: [UInt8]) {
        bytes = Array(SHA256.hash(data: data))
    }

    /// Parses 64 hexadecimal digits, as stored in the index.
    public init?(hex: String) {
        guard hex.utf8.count == 64 else { return nil }
        var parsed: [UInt8] = []
        parsed.reserveCapacity(32)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            parsed.append(byte)
            index = next
        }
        bytes = parsed
    }

    public var hex: String {
        let digits: [Character] = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return text
    }

    /// The first 8 hex digits: what a filed photo's name carries.
    public var shortHex: String { String(hex.prefix(8)) }

    public var description: String { hex }
}
