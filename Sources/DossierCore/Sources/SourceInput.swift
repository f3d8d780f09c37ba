/// A source as an importer gets it: the file, and its bytes on request. Importers that stream
/// (text) open the file at `source.path` themselves; the others read it whole.
public struct SourceInput: Sendable {
    public let source: SourceFile
    /// The first bytes, as sniffed.
    public let head: [UInt8]

    public init(source: SourceFile, head: [UInt8]) {
        self.source = source
        self.head = head
    }

    /// The source with its first `ImportPipeline.sniffLength` bytes as its head: a binary source
    /// as the pipeline hands it over, for a plugin that reads another file beside the one it was
    /// given (a Live Photo's still).
    public static func sniffing(_ source: SourceFile) throws -> SourceInput {
        SourceInput(source: source, head: try DurableFileSystem.readHead(source.readPath, count: ImportPipeline.sniffLength))
    }

    /// The whole file and its digest; refused above `ImportPipeline.maximumSourceSize`.
    public func readAll() throws -> SourceData {
        SourceData(source: source,
                   bytes: try DurableFileSystem.readFile(source.readPath, limit: ImportPipeline.maximumSourceSize))
    }

    /// The whole file copied into `folder` (for a file too large to hold in memory), hashed as it
    /// is copied; refused, as `readAll` does, above `limit` (`ImportPipeline.maximumSourceSize`
    /// unless the importer streams the file, as videos are).
    public func copy(into folder: ScratchFolder, limit: Int64 = ImportPipeline.maximumSourceSize) throws -> ScratchFile {
        guard source.size <= limit else {
            throw SourceReadError.tooLarge(size: source.size, limit: limit)
        }
        return try ScratchFile.copy(of: source.readPath, in: folder)
    }
}
