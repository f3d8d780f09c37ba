import Logging

/// What every step of one import may use: the library, the options, the index, the registered
/// extensions and the listeners.
public struct ImportRun: Sendable {
    public var layout: LibraryLayout { worker.layout }
    public var options: ImportOptions { worker.options }
    /// Nil in a dry run.
    public var index: (any LibraryCatalog)? { worker.index }
    public var context: PipelineContext { worker.context }
    public var logger: Logger { worker.context.logger }
    public let listeners: [any OutcomeListener]
    /// Told the name of each step as it runs for a source (and of the item steps, route,
    /// transform and file, as they run for it): the order tests listen here.
    var observer: StepObserver? { worker.observer }
    let worker: SourceWorker
    /// The pipeline whose settling helpers (commit, index rows, removal) the settling steps use.
    let pipeline: ImportPipeline
    /// Photos' index rows settled and not yet committed (`IndexStep`); committed at the run's end.
    var indexBatch: IndexBatch { worker.indexBatch }

    init(worker: SourceWorker, pipeline: ImportPipeline, listeners: [any OutcomeListener]) {
        self.worker = worker
        self.pipeline = pipeline
        self.listeners = listeners
    }
}

/// Hears each step's name as it runs, with the source's path.
public typealias StepObserver = @Sendable (_ step: String, _ source: String) -> Void
