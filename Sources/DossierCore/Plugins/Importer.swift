/// Reads one kind of source into items. Chosen by sniffing the source's first bytes, never by
/// its name, so a `.JPG` that is really a PNG is read as a PNG.
public protocol Importer: Sendable {
    /// Short name shown by `dossier plugins` and in error messages, e.g. `jpeg`.
    var name: String { get }
    /// One line for `dossier plugins`: what it reads.
    var summary: String { get }
    /// Whether the source's first bytes are something this importer reads: `ImportPipeline.sniffLength`
    /// of them, or for text as many as hold three whole lines (up to `ImportPipeline.longestTextSniff`).
    func canRead(head: [UInt8]) -> Bool
    /// Reads the source, handing each item to `sink` as soon as it is read, so a source of any
    /// size streams through the pipeline in bounded memory. Problems with a part of the source
    /// (a line, a row) go to `sink.report` and the rest goes on; an error thrown means the
    /// source as a whole cannot be read, and nothing of it is filed.
    func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws
    /// Whether the library keeps a copy of the source's bytes under `sources/`: true for sources
    /// whose items are derived from them (logs, CSV, property lists), so every line stays
    /// findable; photo importers say false, a photo being filed itself.
    var keepsSource: Bool { get }
}

extension Importer {
    public var keepsSource: Bool { true }
}
