import Foundation
import Logging
import Synchronization

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
    /// Why the source does not read whole by its format's own structure (a JPEG that ends
    /// before its end marker, a box that runs past the end of the file): a file cut short, or
    /// one still being written. Nil when it reads whole, or when its format gives no way to tell
    /// (text). Reads only what the structure needs; asked by the daemon before it reads a file,
    /// so a file written in closed chunks is not filed from its first part.
    func cutShort(_ input: SourceInput) -> String?
}

extension Importer {
    public var keepsSource: Bool { true }

    public func cutShort(_ input: SourceInput) -> String? { nil }
}

// MARK: - PipelineContext

/// What importers and transforms may use besides the items: the run's logger, library,
/// routing facts, and resources shared by the whole run (a keyword table loaded once).
public struct PipelineContext: Sendable {
    public let logger: Logger
    public let layout: LibraryLayout
    public let routing: RoutingContext
    public let resources: RunResources
    /// `--kind`: the kind of the records of sources that do not say (a CSV without a kind column).
    public let requestedKind: String?
    /// The library's time zone (`LibraryTimeZone`): where an instant (a property list date, a
    /// file's mtime, a PNG's UTC time) becomes a day.
    public let timeZone: TimeZone
    /// Where photos too large to hold in memory are kept while they are worked on.
    public let scratchFolder: ScratchFolder
    /// The library's index, to read what earlier sources were filed as (a Live Photo's movie
    /// finds its photo's name there once the photo has left the folder); nil in a dry run.
    public let index: (any LibraryCatalog)?
    /// The paths of this run's sources: a movie or a sidecar pairs with a photo among them or in
    /// the index, never with a file beside it that the run does not take. Nil: any file beside.
    public let sourcesInRun: Set<String>?

    public init(logger: Logger, layout: LibraryLayout, routing: RoutingContext, resources: RunResources = RunResources(),
                requestedKind: String? = nil, timeZone: TimeZone = .current, scratchFolder: ScratchFolder = .temporary,
                index: (any LibraryCatalog)? = nil, sourcesInRun: Set<String>? = nil) {
        self.index = index
        self.sourcesInRun = sourcesInRun
        self.timeZone = timeZone
        self.scratchFolder = scratchFolder
        self.logger = logger
        self.layout = layout
        self.routing = routing
        self.resources = resources
        self.requestedKind = requestedKind
    }
}

// MARK: - RoutingContext

/// What routers know besides the item.
public struct RoutingContext: Sendable {
    /// The subject named on the command line (`--subject`), if any.
    public let requestedSubject: Subject?
    /// The subjects that exist in the library (or that this import names by folder).
    public let existingSubjects: Set<Subject>
    /// Each subject's names and aliases from its profile, for sources that name subjects.
    public let names: [Subject: [String]]
    /// Whether a `pets/<id>` or `children/<id>` folder naming no subject makes one (`--create`).
    public let createsSubjects: Bool

    public init(requestedSubject: Subject?, existingSubjects: Set<Subject>, names: [Subject: [String]] = [:],
                createsSubjects: Bool = false) {
        self.requestedSubject = requestedSubject
        self.existingSubjects = existingSubjects
        self.names = names
        self.createsSubjects = createsSubjects
    }
}

// MARK: - RunResources

/// Values a plugin loads once per run and shares across sources and workers, e.g. the library's
/// keyword table. Keyed by type; the first caller loads, later ones get the same value.
public final class RunResources: Sendable {
    private let values = Mutex<[ObjectIdentifier: any Sendable]>([:])

    public init() {}

    public func value<Value: Sendable>(_ type: Value.Type, load: () throws -> Value) rethrows -> Value {
        try values.withLock { values in
            if let value = values[ObjectIdentifier(type)] as? Value { return value }
            let value = try load()
            values[ObjectIdentifier(type)] = value
            return value
        }
    }
}
