/// With `--move` (and in the daemon), the source is removed once the library's copy of it is
/// checked (`ImportPipeline.removeSource`); one that cannot be is kept, and the outcome says why.
struct RemoveStep: ImportStep {
    let name = "remove"
    let phase = ImportStepPhase.settling
    let stage = ImportStage.remove

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let worked = source.worked, let removing = source.settlement.removing, let index = run.index else { return .next }
        source.worked?.outcome = run.pipeline.removeSource(removing, safeCopies: worked.safeCopies, digestAsRead: worked.digestAsRead,
                                                           outcome: worked.outcome, index: index, departure: source.settlement.departure)
        return .next
    }
}
