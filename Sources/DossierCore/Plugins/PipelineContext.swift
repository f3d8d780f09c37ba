import Foundation
import Logging

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
