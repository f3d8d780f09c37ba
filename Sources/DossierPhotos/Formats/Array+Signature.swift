extension Array where Element == UInt8 {
    /// Whether these bytes hold `signature` at `offset` (a format's magic number).
    func has(_ signature: [UInt8], at offset: Int = 0) -> Bool {
        count >= offset + signature.count && self[offset..<(offset + signature.count)].elementsEqual(signature)
    }

    /// Whether these bytes hold `signature`'s ASCII at `offset` (`RIFF`, `WEBP`).
    func has(_ signature: String, at offset: Int = 0) -> Bool {
        has(Array(signature.utf8), at: offset)
    }
}
