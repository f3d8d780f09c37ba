/// A source imported before and unchanged since (same path, size and mtime, same --subject),
/// whose filed file is still there, is a duplicate without a byte of it read
/// (`SourceWorker.unchangedImport`).
struct SkipUnchangedStep: ImportStep {
    let name = "skip-unchanged"
    let phase = ImportStepPhase.working
    let stage = ImportStage.discover

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let file = source.source, let earlier = try run.worker.unchangedImport(of: file) else { return .next }
        source.worked = earlier
        return .decided
    }
}
