/// The listeners hear the source's outcome: the terminal, `--json`, the daemon's log.
struct ReportStep: ImportStep {
    let name = "report"
    let phase = ImportStepPhase.settling
    let stage = ImportStage.report
    let runsForStoppedSources = true

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let worked = source.worked else { return .next }
        let (outcome, completed, total) = (worked.outcome, source.completed, source.total)
        run.listeners.forEach { $0.receive(.finished(outcome, completed: completed, total: total)) }
        return .next
    }
}
