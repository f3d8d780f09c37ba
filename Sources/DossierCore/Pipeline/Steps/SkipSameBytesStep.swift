/// A text source whose very bytes another source gave, routed alike, with its records filed, is
/// a duplicate whatever its name (`SourceWorker.sameBytesFiled`); a dry run reads its digest
/// for this alone.
struct SkipSameBytesStep: ImportStep {
    let name = "skip-same-bytes"
    let phase = ImportStepPhase.working
    let stage = ImportStage.keep

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let file = source.source, let importer = source.importer,
              let digest = try source.stagedCopy?.digest ?? run.worker.dryRunDigest(of: file, for: importer),
              let earlier = try run.worker.sameBytesFiled(digest, staged: source.stagedCopy, from: file)
        else { return .next }
        source.worked = earlier
        return .decided
    }
}
