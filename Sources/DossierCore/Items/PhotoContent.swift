/// Where a photo's bytes are while it passes through the pipeline.
public enum PhotoContent: Sendable {
    /// In memory: every photo of everyday size.
    case memory([UInt8])
    /// In a scratch file: a photo too large to hold in memory (its source file, or its pixels
    /// once decoded), which the codecs read and write a part at a time.
    case file(ScratchFile)

    public var size: Int64 {
        switch self {
        case .memory(let bytes): Int64(bytes.count)
        case .file(let file): file.size
        }
    }

    /// SHA-256 of the bytes.
    public var digest: ContentDigest {
        switch self {
        case .memory(let bytes): ContentDigest(of: bytes)
        case .file(let file): file.digest
        }
    }
}
