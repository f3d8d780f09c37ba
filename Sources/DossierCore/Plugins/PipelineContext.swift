import Logging

/// What importers and transforms may use besides the items: the run's logger, library,
/// routing facts, and resources shared by the whole run (a keyword table loaded once).
public struct PipelineContext: Sendable {
    public let logger: Logger
    public let layout: LibraryLayout
    public let routing: RoutingContext
    public let resources: RunResources

    public init(logger: Logger, layout: LibraryLayout, routing: RoutingContext, resources: RunResources = RunResources()) {
        self.logger = logger
        self.layout = layout
        self.routing = routing
        self.resources = resources
    }
}
