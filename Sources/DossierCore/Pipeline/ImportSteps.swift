import Logging

/// The steps of an import, in the order they run: the list to read first. `ImportPipeline` runs
/// it for every source, for `dossier import` and `dossier watch` alike; only where the sources
/// come from differs (`SourceDiscovery` walks the paths an import names; `InboxWatcher` hands on
/// the inbox's settled files).
///
/// The working steps run for up to `--jobs` sources at once, each source on its own; the
/// settling steps one source at a time, in the order sources finish working. `read` streams
/// each item it reads through the item steps, in their order: routed (the `Router`s), then
/// transformed (the `Transform`s, in `TransformStage` order), then filed (a photo by the
/// `Filer`; records spilled to sorted runs that `commit` merges; profiles by `commit`).
public struct ImportSteps: Sendable {
    public private(set) var steps: [any ImportStep]

    /// Every import's steps, before any plugin adds its own.
    public static let standard = ImportSteps(steps: [
        // Working: up to --jobs sources at once.
        DiscoverStep(),         // a path that could not be read, or a library passed over, is decided
        SkipUnchangedStep(),    // imported before, unchanged since: a duplicate, not a byte read
        SniffStep(),            // its first bytes pick the importer
        KeepStep(),             // a text source's bytes copied into staging
        SkipSameBytesStep(),    // a text source whose very bytes are filed: a duplicate
        ReadStep(),             // read into items, each routed, transformed and filed as it comes
        // Settling: one source at a time.
        SameBytesFiledAtOnceStep(), // the same bytes filed by two sources at once: the second a duplicate
        CommitStep(),           // its copy kept, its records merged into year files, its profiles filed
        IndexStep(),            // recorded in the index, in one transaction
        RemoveStep(),           // --move: removed once the library's copy is checked
        ReportStep(),           // the listeners hear its outcome
    ])

    /// The item steps `read` streams each item through, in order (see `SourceCollector`).
    public static let itemSteps = ["route", "transform", "file"]

    public init(steps: [any ImportStep]) {
        self.steps = steps
    }

    /// The steps, with those the plugins add each put where it asks.
    public func adding(_ added: [PluginStep]) -> ImportSteps {
        var steps = self.steps
        for plugin in added {
            let at = steps.firstIndex { $0.name == plugin.anchor } .map { plugin.placement == .before ? $0 : $0 + 1 }
            steps.insert(plugin.step, at: at ?? steps.endIndex)
        }
        return ImportSteps(steps: steps)
    }

    public var names: [String] { steps.map(\.name) }
    var working: [any ImportStep] { steps.filter { $0.phase == .working } }
    var settling: [any ImportStep] { steps.filter { $0.phase == .settling } }
}

/// A step a plugin adds to every import, and where: before or after the step of a name (at the
/// end when there is none of that name).
public struct PluginStep: Sendable {
    public enum Placement: Sendable { case before, after }

    public let step: any ImportStep
    public let placement: Placement
    public let anchor: String

    public init(_ step: any ImportStep, _ placement: Placement, _ anchor: String) {
        self.step = step
        self.placement = placement
        self.anchor = anchor
    }
}

// MARK: - ImportSteps+Running

/// The one runner of the list: `ImportPipeline` calls `work` for each source in a child task
/// (up to `--jobs` at once) and `settle` for each as it finishes, one at a time. Both run on
/// `BlockingExecutor`.
extension ImportSteps {
    /// Takes a source through the working steps until one decides its outcome. A step that
    /// throws decides it too: the source failed, at the stage the error names.
    func work(on found: SourceDiscovery.Found, in run: ImportRun) -> SourceInProgress {
        var source = SourceInProgress(found)
        for step in working {
            run.observer?(step.name, source.path)
            do {
                if try step.run(&source, in: run) == .decided { break }
            } catch {
                let failure = error as? ImportFailure ?? ImportFailure(path: source.path, stage: step.stage, error: error)
                var worked = WorkedSource(outcome: SourceOutcome(failed: failure), source: source.source)
                worked.libraryFailure = failure.libraryError
                source.worked = worked
                break
            }
        }
        if source.worked == nil {
            // Every working step passed it on and none read it: a plugin's step list left out `read`.
            source.worked = WorkedSource(outcome: SourceOutcome(
                source: source.path, status: .failed, stage: .read,
                error: "\(source.path): no step of this import reads it (\(names.joined(separator: ", ")))"), source: source.source)
        }
        return source
    }

    /// Takes a worked source through the settling steps; after one makes it fail, only those
    /// that run for stopped sources. Once the library itself failed under it (a full disk, a
    /// broken index) none: that is not the source's fault, and the import stops, saying why once.
    func settle(_ source: SourceInProgress, in run: ImportRun) -> SourceInProgress {
        var source = source
        for step in settling where !source.stopped || step.runsForStoppedSources {
            guard source.worked?.libraryFailure == nil else { break }
            run.observer?(step.name, source.path)
            do {
                _ = try step.run(&source, in: run)
            } catch {
                let failure = error as? ImportFailure ?? ImportFailure(path: source.path, stage: step.stage, error: error)
                if let library = failure.libraryError { source.worked?.libraryFailure = library }
                source.fail(failure)
            }
        }
        return source
    }
}

// MARK: - ImportRun

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
