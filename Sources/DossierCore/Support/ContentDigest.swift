import Crypto

/// A SHA-256 digest of file contents: the identity used for deduplication.
public struct ContentDigest: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// A digest already computed (32 bytes).
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A digest written as 64 hex digits, as the index keeps it; nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = ContentDigest.value(ofHexDigit: digits[index]),
                  let low = ContentDigest.value(ofHexDigit: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    private static func value(ofHexDigit digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    public init(of data: [UInt8]) {
        bytes = Array(SHA256.hash(data: data))
    }

    public var hex: String { hex(digits: 64) }

    /// The first 8 hex digits: what a filed photo's name carries.
    public var shortHex: String { hex(digits: 8) }

    /// The first `digits` hex digits (at most 64).
    public func hex(digits: Int) -> String {
        let alphabet: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: digits) { buffer in
            alphabet.withUTF8Buffer { alphabet in
                for index in 0..<digits {
                    let byte = bytes[index / 2]
                    buffer[index] = alphabet[Int(index % 2 == 0 ? byte >> 4 : byte & 0x0F)]
                }
            }
            return digits
        }
    }

    public var description: String { hex }
}
