/// One step every source of an import goes through. The steps are listed, in the order they run,
/// in `ImportSteps`; `ImportPipeline` runs that list for `dossier import` and `dossier watch`
/// alike, and a plugin adds a step to it (`Plugin.steps`).
public protocol ImportStep: Sendable {
    /// Short and stable (`sniff`, `index`): where the step stands in the list, and what
    /// `dossier plugins` and the order tests name it by.
    var name: String { get }
    /// Where it runs: beside the other sources' steps, or one source at a time.
    var phase: ImportStepPhase { get }
    /// What a source that fails at this step (an error the step does not name the stage of) is
    /// said to have stopped at.
    var stage: ImportStage { get }
    /// Does the step's work for one source. `.decided` from a working step ends the working
    /// phase for the source: its outcome is known (a duplicate, a file no importer reads) and
    /// only the settling steps remain. A settling step that makes the source fail sets
    /// `source.stopped`, and only the steps that look at stopped sources run after it.
    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult
    /// Whether it runs for a source that failed or stopped at an earlier settling step (the
    /// report does; the daemon's quarantine is for those).
    var runsForStoppedSources: Bool { get }
}

extension ImportStep {
    public var runsForStoppedSources: Bool { false }
}

/// Where a step runs.
public enum ImportStepPhase: Sendable {
    /// Beside the other sources' working steps (up to `--jobs` sources at once), on
    /// `BlockingExecutor`'s threads: reading, decoding, writing photos, spilling records.
    case working
    /// One source at a time, in the order the sources finish their working steps, by the task
    /// driving the import: the steps that commit to the library's year files and index, remove a
    /// source, and tell the listeners, none of which may see two sources at once.
    case settling
}

public enum ImportStepResult: Sendable {
    /// On to the next step.
    case next
    /// The source's outcome is known: no further working steps.
    case decided
}
