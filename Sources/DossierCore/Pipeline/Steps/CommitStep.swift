/// What the working steps left for the library, one source at a time: the text source's copy
/// placed under `sources/`, its records merged into their year files (replacing those of its
/// earlier versions that it no longer gives), its profiles and species entries filed.
struct CommitStep: ImportStep {
    let name = "commit"
    let phase = ImportStepPhase.settling
    let stage = ImportStage.file

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard var worked = source.worked else { return .next }
        let pipeline = run.pipeline, options = run.options
        var settlement = source.settlement
        // When the file was made: with its device and inode, what tells this very file, edited in
        // place, from a new one given a freed inode's number (`SourceContinuity`).
        let birthTime = worked.keptCopy == nil ? nil : worked.source.flatMap { file in
            file.identity.flatMap { SourcePath.birthTime(of: file.readPath, identity: $0, followingLink: file.link == .followed) }
        }
        do {
            if let copy = worked.keptCopy, let file = worked.source, let index = run.index, pipeline.replacesEarlierVersions {
                settlement.lineage = try index.lineage(ofSource: file.path, otherThan: copy.relativePath)
                // A file that came to this path while nothing watched replaces what the earlier
                // one gave only when it is that one edited; a new file only took its name: the
                // earlier one has departed, and its records stay beside the new one's.
                if !settlement.lineage.isEmpty, !options.dryRun,
                   !SourceContinuity(layout: run.layout).isEdit(file, birthTime: birthTime, newCopy: copy.stagedPath,
                                                                lineage: settlement.lineage) {
                    try index.record(SourceDeparture(path: file.path, at: ImportPipeline.now()))
                    settlement.lineage = []
                    worked.outcome.warnings.append("a new file at the path of one read before (neither that file edited in "
                        + "place nor its lines carried on): its records are added, and the earlier file's stay")
                }
            } else if options.retryingProblems, !options.dryRun, let copy = worked.keptCopy, let file = worked.source,
                      let index = run.index {
                // A retry reads the same version again, after the library's settings changed: its
                // records as read now replace those its first reading filed (a unit settled, a
                // kind found), whose ids differ.
                settlement.lineage = try index.yearFiles(ofSource: file.path, kept: copy.relativePath)
            }
            // The kept copy first: the records about to be merged name it.
            settlement.kept = try pipeline.keepSource(&worked)
            // And the index told which version gives records to which year files, before they are
            // merged: killed between the merge and the commit that records the version, the next
            // import of the file still finds its records (as one of the file's versions) to replace.
            if let pending = worked.pendingRecords, let kept = settlement.kept, let file = worked.source, let index = run.index,
               !options.dryRun {
                try index.record([], renditions: [], recordFiles: [], source: nil, kept: nil, originals: [], ledger: nil, yearFiles: try pipeline.versionRows(
                    of: file, kept: kept.path, yearFiles: pending.yearFiles, worked: worked, birthTime: birthTime, index: index),
                                 superseded: [], departure: nil)
            }
            var ids: [String: Set<UInt64>] = [:]
            if let pending = worked.pendingRecords {
                (settlement.recordFiles, ids) = try pipeline.commit(pending, into: &worked,
                                                                    collectingIDsIn: Set(settlement.lineage.map(\.yearFile)),
                                                                    dryRunFilings: run.worker.dryRunFilings)
            }
            try pipeline.fileCustomItems(&worked)
            if let kept = settlement.kept, let file = worked.source, let index = run.index {
                // A retry reads the kept copy itself: the original's index row stays as its import left it.
                if options.retryingProblems { worked.imported = nil }
                worked.imported?.sha256 = kept.sha256
                worked.imported?.filedPath = kept.path
                settlement.yearFiles = try pipeline.versionRows(of: file, kept: kept.path, yearFiles: worked.recordYearFiles,
                                                                worked: worked, birthTime: birthTime, index: index)
                settlement.recordFiles = try pipeline.replace(settlement.lineage, of: file, keeping: ids, index: index,
                                                              into: &worked, recordFiles: settlement.recordFiles)
            }
            if options.history == .departed { worked.imported?.departedAt = ImportPipeline.now() }
            if !worked.standInRows.isEmpty && !options.dryRun { settlement.yearFiles = worked.standInRows }
        } catch {
            worked.pendingRecords?.discard()
            if let copy = worked.keptCopy { try? run.layout.files.remove(copy.stagedPath) }
            if let library = error as? LibraryError, library.isAboutTheLibrary { worked.libraryFailure = library }
            source.worked = worked
            source.fail(ImportFailure(path: source.path, stage: .file, error: error))
            return .next
        }
        source.worked = worked
        source.settlement = settlement
        return .next
    }
}
