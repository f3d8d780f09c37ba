/// A source's bytes as read for import, with their digest.
public struct SourceData: Sendable {
    public let source: SourceFile
    public let bytes: [UInt8]
    /// SHA-256 of `bytes`.
    public let digest: ContentDigest

    public init(source: SourceFile, bytes: [UInt8]) {
        self.source = source
        self.bytes = bytes
        digest = ContentDigest(of: bytes)
    }
}
