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
