import DossierCore
import Synchronization

/// The daemon's step after `remove`: a source that could not be filed goes to the library's
/// quarantine, so nothing is retried forever (with `--keep` it stays in the inbox), unless it
/// waits in the inbox (cut short while it may still be written, a sidecar for its photo); a link
/// not followed stays in the inbox, listed as stuck, and nothing it leads to is copied; a source once
/// listed as stuck and filed now comes off the list. Not while the import is being stopped: a
/// source cut short then is tried again at the next start.
struct QuarantineStep: ImportStep {
    let name = "quarantine"
    let phase = ImportStepPhase.settling
    let stage = ImportStage.remove
    let runsForStoppedSources = true
    let service: ImportService
    let quarantined: QuarantinedSources

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let outcome = source.outcome, let file = source.source, let index = run.index else { return .next }
        switch outcome.status {
        case .imported, .duplicate:
            service.filed(file, index: index)
        case .skipped where outcome.errorCode == HoldCutShortStep.code:
            // Cut short, maybe still being written: it waits in the inbox for the rest.
            quarantined.set(file.path, service.leftCutShort(file, outcome))
        case .skipped where outcome.errorCode == SourceLink.refusedCode:
            // A link out of the inbox (or to another user's file, a folder): never read, never
            // copied into the quarantine; it stays, listed with the reason, with --keep too.
            quarantined.set(file.path, service.refuse(file, outcome, index: index))
        case .skipped where outcome.errorCode == NotImportable.waitsForAnotherFile:
            // Nothing wrong with it: it waits in the inbox for the file it belongs with.
            quarantined.set(file.path, service.pending(file, outcome))
        case .failed, .skipped, .unassigned:
            guard !service.keepsSources, !Task.isCancelled,
                  SourcePath.status(file.path, followingLinks: false) != nil else { return .next }
            quarantined.set(file.path, service.quarantine(file, outcome, index: index, layout: run.layout))
        }
        return .next
    }
}

/// How the quarantine ended each source of one batch it looked at.
final class QuarantinedSources: Sendable {
    private let endings = Mutex<[String: InboxWatcher.Ending]>([:])

    func set(_ path: String, _ ending: InboxWatcher.Ending) {
        endings.withLock { $0[path] = ending }
    }

    func ending(of path: String) -> InboxWatcher.Ending? {
        endings.withLock { $0[path] }
    }
}
