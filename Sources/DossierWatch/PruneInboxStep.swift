import DossierCore

/// The daemon's last step before the report: once a source has left the inbox (removed when
/// filed, quarantined, or deleted while it was filed), the folders it emptied go
/// (`EmptiedFolders`: never the inbox, nor a subject's drop folder).
struct PruneInboxStep: ImportStep {
    let name = "prune-inbox"
    let phase = ImportStepPhase.settling
    let stage = ImportStage.remove
    let runsForStoppedSources = true
    let inbox: String

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let file = source.source, SourcePath.status(file.path, followingLinks: false) == nil else { return .next }
        EmptiedFolders(inbox: inbox, subjects: run.layout.existingSubjects()).remove(above: [file.path])
        return .next
    }
}
