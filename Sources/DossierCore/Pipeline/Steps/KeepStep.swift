/// A text source's bytes are copied into the library's staging before it is read, so its
/// records can name the copy the library keeps (`SourceWorker.keepCopy`, `SourceKeeper`).
struct KeepStep: ImportStep {
    let name = "keep"
    let phase = ImportStepPhase.working
    let stage = ImportStage.keep

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let file = source.source, let importer = source.importer else { return .next }
        source.stagedCopy = try run.worker.keepCopy(of: file, for: importer)
        return .next
    }
}
