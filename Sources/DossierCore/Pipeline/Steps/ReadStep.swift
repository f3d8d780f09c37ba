/// The importer reads the source into items, streamed through the item steps as they come
/// (`SourceCollector`): each is routed, transformed and filed (a photo at once; records in
/// batches spilled behind the reader, merged by `commit`; profiles by `commit`). Nothing of a
/// source that cannot be read whole is filed.
struct ReadStep: ImportStep {
    let name = "read"
    let phase = ImportStepPhase.working
    let stage = ImportStage.read

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let file = source.source, let importer = source.importer, let head = source.head else { return .next }
        source.worked = try run.worker.read(file, with: importer, head: head, keptCopy: source.stagedCopy)
        return .decided
    }
}
