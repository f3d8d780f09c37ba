/// The source's first bytes are read and the importer that recognises them picked; a source no
/// importer reads is skipped, saying what it looks like.
struct SniffStep: ImportStep {
    let name = "sniff"
    let phase = ImportStepPhase.working
    let stage = ImportStage.sniff

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let file = source.source else { return .next }
        let head = try run.worker.step(.sniff, file) { try run.worker.sniffedHead(of: file) }
        source.head = head
        guard let importer = run.worker.registry.importer(for: head) else {
            let type = FileTypeDescription.describe(head: head)
            source.worked = WorkedSource(outcome: SourceOutcome(
                source: file.path, status: .skipped, stage: .sniff,
                error: "\(file.path): not a kind of file Dossier imports (it looks like \(type))"), source: file)
            return .decided
        }
        source.importer = importer
        return .next
    }
}
