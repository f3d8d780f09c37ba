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
