import DossierCore
import Foundation
import Synchronization

/// The daemon's step after `sniff`: a file its format's own structure says is cut short
/// (`Importer.cutShort`: a JPEG that ends before its end marker, a box that runs past the end of
/// the file) is not read while it may still be written. A program that writes a photo in closed
/// chunks lets each chunk settle; the first one filed would be a damaged photo, removed from the
/// inbox, and the rest quarantined as data of no kind: the whole photo nowhere. So it stays in
/// the inbox, neither filed nor quarantined (`QuarantineStep`), and is taken again when it
/// changes. Once it has not changed for ten times `--settle` (`CutShortSources.longSettle`) it
/// is read as it is: filed as damaged, or quarantined where it does not read at all.
struct HoldCutShortStep: ImportStep {
    let name = "hold-cut-short"
    let phase = ImportStepPhase.working
    let stage = ImportStage.read
    let sources: CutShortSources

    /// The code of a source left in the inbox for being cut short (its outcome is `skipped`).
    static let code = "cut-short"

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        guard let file = source.source, let importer = source.importer, let head = source.head,
              let damage = importer.cutShort(SourceInput(source: file, head: head))
        else { return .next }
        guard !sources.unchangedLongEnough(file, damage: damage) else { return .next }
        var outcome = SourceOutcome(source: file.path, status: .skipped, stage: .read,
                                    error: "\(file.path): \(damage); left in the inbox while it may still be written, "
                                        + "and filed as it is once it has not changed for \(sources.longSettle)")
        outcome.errorCode = HoldCutShortStep.code
        source.decide(outcome)
        return .decided
    }
}

// MARK: - CutShortSources

/// What the daemon knows of the cut-short files in its inbox: since when each has been as it is
/// (by the daemon's own clock, so a file whose times a writer or a skewed server set is still
/// let through), and the ones let through to be filed as they are, whose log line says so.
final class CutShortSources: Sendable {
    /// How long a cut-short file must stay unchanged before it is filed as it is.
    let longSettle: Duration
    private let state = Mutex(State())

    private struct State {
        var seen: [String: (stamp: Stamp, since: ContinuousClock.Instant)] = [:]
        /// Let through cut short: the reason, for the log line of its filing.
        var letThrough: [String: String] = [:]
    }

    /// Its size, modification time and change time: a change to any is a write.
    private struct Stamp: Equatable {
        let size: Int64
        let modified: Int64
        let changed: Int64
    }

    init(longSettle: Duration) {
        self.longSettle = longSettle
    }

    /// Whether the file has not changed for `longSettle`: by its own times (its change time,
    /// which no writer sets back), or since the daemon first found it as it is now. False
    /// starts the count for a file not seen as it is before.
    func unchangedLongEnough(_ file: SourceFile, damage: String) -> Bool {
        guard let info = SourcePath.status(file.readPath) else { return true }
        let stamp = Stamp(size: Int64(info.st_size), modified: SourceFile.nanoseconds(of: info.st_mtim),
                          changed: SourceFile.nanoseconds(of: info.st_ctim))
        let settle = longSettle.components
        let longSettleNanoseconds = settle.seconds * 1_000_000_000 + settle.attoseconds / 1_000_000_000
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let byItsTimes = now - max(stamp.modified, stamp.changed) >= longSettleNanoseconds
        let clock = ContinuousClock.now
        return state.withLock { state in
            let known = state.seen[file.path]
            let bySight = known.map { $0.stamp == stamp && clock - $0.since >= longSettle } ?? false
            guard byItsTimes || bySight else {
                if known?.stamp != stamp { state.seen[file.path] = (stamp, clock) }
                // Files deleted while they waited are never looked at again: forgotten here.
                if state.seen.count > 256 { state.seen = state.seen.filter { SourcePath.status($0.key) != nil } }
                return false
            }
            state.seen[file.path] = nil
            state.letThrough[file.path] = damage
            return true
        }
    }

    /// Why the file at `path` was let through cut short, once; nil when it was not.
    func takeLetThrough(_ path: String) -> String? {
        state.withLock { $0.letThrough.removeValue(forKey: path) }
    }

    /// Forgets a file that left the inbox or was read (filed, quarantined, or found whole).
    func forget(_ path: String) {
        state.withLock { state in
            state.seen[path] = nil
            state.letThrough[path] = nil
        }
    }
}
