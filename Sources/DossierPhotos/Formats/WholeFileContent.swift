import DossierCore

/// The bytes of a file filed as it is (a movie, a GIF, a raw, a sound): held in memory up to
/// `inMemorySize`, else copied once into a scratch file in the library's staging folder, hashed
/// on the way, so a file of any size is filed without being held whole.
enum WholeFileContent {
    /// Files held in memory up to this size; larger ones are copied to a scratch file.
    static let inMemorySize: Int64 = 64 << 20
    /// The largest file filed: a phone's longest 4K recording is a few tens of GiB.
    static let maximumSize: Int64 = 256 << 30

    static func read(_ input: SourceInput, context: PipelineContext) throws -> (PhotoContent, ContentDigest) {
        if input.source.size <= inMemorySize {
            let data = try input.readAll()
            return (.memory(data.bytes), data.digest)
        }
        let file = try input.copy(into: context.scratchFolder, limit: maximumSize)
        return (.file(file), file.digest)
    }

    /// The first `count` bytes of the content (where a format's header and metadata lie).
    static func prefix(_ content: PhotoContent, _ count: Int) -> [UInt8] {
        switch content {
        case .memory(let bytes): return Array(bytes.prefix(count))
        case .file(let file): return (try? file.read(at: 0, count: count)) ?? []
        }
    }
}
