import Logging

/// Reads one kind of source into items. Chosen by sniffing the source's first bytes, never by
/// its name, so a `.JPG` that is really a PNG is read as a PNG.
public protocol Importer: Sendable {
    /// Short name shown by `dossier plugins` and in error messages, e.g. `jpeg`.
    var name: String { get }
    /// One line for `dossier plugins`: what it reads.
    var summary: String { get }
    /// Whether the source's first bytes (up to `ImportPipeline.sniffLength`) are something this
    /// importer reads.
    func canRead(head: [UInt8]) -> Bool
    /// Reads the whole source. Throws an error that says what is wrong with it; the pipeline
    /// adds the path.
    func read(_ data: SourceData, context: ImportContext) throws -> [Item]
}

/// What importers may use besides the source itself.
public struct ImportContext: Sendable {
    public let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }
}
