/// What the source gave is recorded in the index, in one transaction: its filed file (and its
/// rendition), its year files, its kept copy and problems, and (when it is to be removed) its departure. A
/// photo filed by copy waits with others to be committed (`IndexBatch`); anything else is
/// committed at once, after those waiting.
struct IndexStep: ImportStep {
    let name = "index"
    let phase = ImportStepPhase.settling
    let stage = ImportStage.index

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let worked = source.worked, !run.options.dryRun, let index = run.index else { return .next }
        let settlement = source.settlement
        let removing = run.options.move && [.imported, .duplicate].contains(worked.outcome.status)
            && worked.outcome.destination != nil ? worked.source : nil
        // The source's departure, recorded with what it gave in one commit when it is to be
        // removed (taken back if it cannot be after all): no commit of its own for each source.
        var departure: SourceDeparture?
        do {
            let ledger = worked.keptCopy.map { _ in run.pipeline.ledgerEntries(of: worked, keptPath: settlement.kept?.path) }
            if !worked.filed.isEmpty || !worked.renditions.isEmpty || worked.imported != nil || !settlement.recordFiles.isEmpty || settlement.kept != nil
                || !settlement.yearFiles.isEmpty {
                departure = removing.flatMap { $0.readPath == $0.path ? SourceDeparture(path: $0.path, at: ImportPipeline.now()) : nil }
                let photoAlone = removing == nil && ledger == nil && settlement.recordFiles.isEmpty && settlement.kept == nil
                    && settlement.yearFiles.isEmpty && settlement.lineage.isEmpty
                if photoAlone {
                    if run.indexBatch.add(PhotoRows(filed: worked.filed, renditions: worked.renditions, source: worked.imported,
                                                    originals: worked.originals)) {
                        try run.indexBatch.commit(into: index)
                    }
                } else {
                    try run.indexBatch.commit(into: index)
                    try index.record(worked.filed, renditions: worked.renditions, recordFiles: settlement.recordFiles, source: worked.imported,
                                     kept: settlement.kept, originals: worked.originals, ledger: ledger, yearFiles: settlement.yearFiles,
                                     superseded: Array(Set(settlement.lineage.map(\.keptPath))), departure: departure)
                }
            }
        } catch {
            if error.isAboutTheLibrary { source.worked?.libraryFailure = error }
            var failure = ImportFailure(path: source.path, stage: .index, error: error)
            failure.reason = "filed, but \(failure.reason)"
            source.fail(failure)
            return .next
        }
        source.settlement.departure = departure
        source.settlement.removing = removing
        return .next
    }
}
