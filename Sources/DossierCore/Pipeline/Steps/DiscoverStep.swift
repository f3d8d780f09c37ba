/// A path discovery could not read, or passed over (a Dossier library, a hidden file, a link it
/// does not follow, a FIFO or device), is decided here: it fails or is skipped, with the reason.
struct DiscoverStep: ImportStep {
    let name = "discover"
    let phase = ImportStepPhase.working
    let stage = ImportStage.discover

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        switch source.found {
        case .file(let file):
            guard case .refused(let reason) = file.link else { return .next }
            // Never read: not even its first bytes, nor a copy into the quarantine.
            var outcome = SourceOutcome(source: file.path, status: .skipped, stage: .discover, error: "\(file.path): \(reason)")
            outcome.errorCode = SourceLink.refusedCode
            source.worked = WorkedSource(outcome: outcome, source: file)
        case .unreadable(let path, let reason):
            source.worked = WorkedSource(outcome: SourceOutcome(source: path, status: .failed, stage: .discover,
                                                                error: "\(path): \(reason)"))
        case .passedOver(let path, let isTheLibrary):
            let reason = isTheLibrary ? "it is the library being imported into; Dossier never takes its own library apart"
                : "it is a Dossier library; Dossier never takes a library apart (to import from it, name a folder inside it)"
            source.worked = WorkedSource(outcome: SourceOutcome(source: path, status: .skipped, stage: .discover,
                                                                error: "\(path): \(reason)"))
        case .passedOverName(let path, let code, let reason):
            var outcome = SourceOutcome(source: path, status: .skipped, stage: .discover, error: "\(path): \(reason)")
            outcome.errorCode = code
            source.worked = WorkedSource(outcome: outcome)
        case .notRegularFile(let path, let kind):
            var outcome = SourceOutcome(source: path, status: .skipped, stage: .discover,
                                        error: "\(path): \(NotARegularFile.reason(kind: kind))")
            outcome.errorCode = NotARegularFile.code
            source.worked = WorkedSource(outcome: outcome)
        }
        return .decided
    }
}
