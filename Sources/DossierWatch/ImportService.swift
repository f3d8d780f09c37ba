import DossierCore
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The daemon: takes the inbox's settled files from an `InboxWatcher`, a batch at a time, through
/// the same pipeline as `dossier import`, and then out of the inbox: removed once filed (the
/// pipeline's `--move`, which checks the library's copy first), or quarantined when they cannot
/// be, so nothing is retried forever. With `keep`, sources stay where they are.
///
/// It files only into the library it started with, known by its id, not its path: while the
/// library is not there (its drive unmounted, the folder moved away) or another one is at its
/// path, nothing is filed, every inbox file stays, and the daemon says so once and waits, as it
/// waits for an inbox that is gone. It never makes a library.
///
/// The library is held only while a batch is filed (a session per batch), so `dossier import`,
/// `subjects add` and the rest work beside the daemon; a batch that finds the library busy waits
/// for it without blocking a thread. A graceful shutdown (SIGTERM, SIGINT) stops taking files:
/// the batch under way stops taking new sources and finishes those started; what was not started
/// stays in the inbox for the next start. Killed at any moment, the next start finds every source
/// still in the inbox filed exactly once (the pipeline files idempotently and removes a source
/// only after its copy is durable and indexed) or not yet filed.
public final class ImportService: Service {
    public struct Settings: Sendable {
        /// Leave sources in the inbox (the index remembers them; a changed one is imported again).
        public var keep: Bool
        public var jobs: Int
        /// After SIGTERM or SIGINT, how long the files under way may take before the daemon
        /// exits anyway (safe: filing is atomic, and what was not filed stays in the inbox).
        public var shutdownTimeout: Duration
        /// `--originals`; nil: the library's setting, else `lossy`.
        public var originals: OriginalsPolicy?
        /// `--create`: a subject folder in the inbox naming no subject makes one.
        public var createsSubjects: Bool

        public init(keep: Bool = false, jobs: Int = ImportOptions.defaultJobs, shutdownTimeout: Duration = .seconds(10),
                    originals: OriginalsPolicy? = nil, createsSubjects: Bool = false) {
            self.keep = keep
            self.jobs = jobs
            self.shutdownTimeout = shutdownTimeout
            self.originals = originals
            self.createsSubjects = createsSubjects
        }
    }

    /// How long to wait before trying the library again when it is busy, and after it failed.
    static let busyPause: Duration = .milliseconds(500)
    static let failurePauses: [Duration] = [.seconds(5), .seconds(30), .seconds(120), .seconds(600)]
    /// How often a library that is not at its path is looked for.
    static let libraryCheck: Duration = .seconds(2)

    let watcher: InboxWatcher
    let layout: LibraryLayout
    /// The id of the library the daemon started with: the only one it files into.
    let libraryID: String
    let settings: Settings
    let logger: Logger
    /// Made anew for each batch: the library's keywords, species and subjects are read again.
    let makePipeline: @Sendable (ImportOptions) throws -> ImportPipeline
    let notifier: SystemdNotifier?
    /// Run on the blocking executor after each batch is filed: `dossier watch --report` refreshes
    /// the library's site there, when the batch's files are in and the library is not held.
    let afterBatch: (@Sendable () -> Void)?
    private let tally = Mutex(Tally())
    /// The inbox files listed as stuck in the library's index, so a batch that holds none of them
    /// and quarantines nothing needs no second session.
    private let stuck: Mutex<Set<String>>
    /// Files seen leaving the inbox since the last batch was filed, to be recorded as departed
    /// with the next one (kept here until a batch is filed).
    private let departures = Mutex<[String]>([])
    /// Whether what runs after a batch (`--report`) is under way: the batch is filed by then, so a
    /// shutdown that times out leaves nothing of it in the inbox, and says so.
    private let afterBatchRunning = Atomic<Bool>(false)
    /// Inbox files waiting for another file (a sidecar for its photo): tried again once a photo
    /// of their name is filed from their folder.
    private let pendingSources = Mutex<Set<String>>([])
    /// Inbox files that read cut short, left there while they may still be written (`HoldCutShortStep`).
    let cutShortSources: CutShortSources

    struct Tally {
        var filed = 0
        var duplicates = 0
        var quarantined = 0
        var failed = 0

        var status: String {
            "watching; filed \(filed), duplicates \(duplicates), quarantined \(quarantined), failed \(failed)"
        }
    }

    public init(watcher: InboxWatcher, layout: LibraryLayout, libraryID: String, stuck: Set<String> = [],
                settings: Settings, logger: Logger, notifier: SystemdNotifier?, afterBatch: (@Sendable () -> Void)? = nil,
                makePipeline: @escaping @Sendable (ImportOptions) throws -> ImportPipeline) {
        self.watcher = watcher
        self.layout = layout
        self.libraryID = libraryID
        self.stuck = Mutex(stuck)
        self.settings = settings
        self.logger = logger
        self.notifier = notifier
        self.afterBatch = afterBatch
        self.makePipeline = makePipeline
        cutShortSources = CutShortSources(longSettle: watcher.settings.cutShortSettle)
    }

    public func run() async throws {
        watcher.start()
        await withTaskGroup(of: Void.self) { [self] group in
            group.addTask { await self.reloadOnHangUp() }
            group.addTask {
                await withGracefulShutdownHandler {
                    await self.fileBatches()
                } onGracefulShutdown: {
                    self.notifier?.stopping()
                    self.logger.record(.stopping, ["reason": "finishing the files under way"])
                    self.exitAfterShutdownTimeout()
                }
            }
            await group.next()
            group.cancelAll()
        }
        watcher.stop()
    }

    /// A file under way that takes longer than the shutdown timeout (a huge log) is left: the
    /// process exits, as a second Ctrl-C does to an import. Nothing partial is visible (filing is
    /// atomic, staging is cleared by the next start) and the source is still in the inbox.
    /// `_exit`, not `exit`: no atexit handler runs under the threads still working, and the log
    /// line is already written (the log handler writes straight to the descriptor).
    private func exitAfterShutdownTimeout() {
        let timeout = settings.shutdownTimeout
        let logger = self.logger
        let deadline = Thread {
            Thread.sleep(forTimeInterval: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
            let reason = self.afterBatchRunning.load(ordering: .relaxed)
                ? "the shutdown timeout (\(timeout)) passed while the report after the last batch was written; that batch is filed, "
                    + "and the report is made again after the next batch (or by `dossier report`)"
                : "the shutdown timeout (\(timeout)) passed; the files still under way stay in the inbox for the next start"
            logger.record(.stopped, level: .warning, ["reason": "\(reason)"])
            _exit(0)
        }
        deadline.start()
    }

    /// The library's configuration is read for every batch; SIGHUP says so in the log and reads
    /// the whole inbox again, so files left for want of a subject are looked at anew.
    private func reloadOnHangUp() async {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            logger.record(.reload, ["reason": "SIGHUP: configuration and subjects are read again"])
            watcher.rescan(reason: "SIGHUP")
        }
    }

    private func fileBatches() async {
        for await batch in watcher.batches.cancelOnGracefulShutdown() {
            await file(batch)
            if Task.isShuttingDownGracefully || Task.isCancelled { break }
        }
    }

    /// Files one batch, then takes each source out of the inbox or leaves it, and tells the watcher.
    func file(_ batch: [SourceFile]) async {
        var batch = batch
        var failures = 0
        var saidBusy = false
        attempts: while await libraryIsThere() {
            // A batch tried again after the library failed halfway: what was filed and taken
            // out of the inbox then has left; only the rest is tried again.
            let (present, gone) = batch.reduce(into: ([SourceFile](), [String]())) { split, source in
                if SourcePath.status(source.path, followingLinks: false) != nil { split.0.append(source) } else { split.1.append(source.path) }
            }
            if !gone.isEmpty { watcher.finished(gone.map { ($0, .left) }) }
            batch = present
            guard !batch.isEmpty else { return }
            var options = ImportOptions(move: !settings.keep, jobs: settings.jobs, waitForLock: false)
            options.access = .expecting(id: libraryID)
            options.originals = settings.originals
            options.createsSubjects = settings.createsSubjects
            let departed = watcher.takeDepartures()
            options.departures = departures.withLock { $0 += departed; return $0 }
            let recorder = OutcomeRecorder { [self] outcome in logFiled(outcome) }
            let quarantined = QuarantinedSources()
            // The daemon's own steps: a file cut short is not read while it may still be written;
            // after the source is removed (or not), the ones not filed go to the quarantine, and
            // the inbox folders emptied go.
            let steps = [PluginStep(HoldCutShortStep(sources: cutShortSources), .after, "sniff"),
                         PluginStep(QuarantineStep(service: self, quarantined: quarantined), .after, "remove"),
                         PluginStep(PruneInboxStep(inbox: watcher.inbox), .after, "quarantine")]
            do {
                let pipeline = try makePipeline(options)
                let found = batch.map { SourceDiscovery.Found.file($0) }
                let summary = try await cancelWhenGracefulShutdown {
                    try await pipeline.run(found: found, listeners: [recorder, NoticeLog(logger: self.logger)], adding: steps)
                }
                departures.withLock { $0.removeFirst(min($0.count, options.departures.count)) }
                // Looking at each source's path again blocks: on the executor.
                let interrupted = summary.interrupted
                await BlockingWork.run { settle(batch, recorder: recorder, quarantined: quarantined, interrupted: interrupted) }
                if let afterBatch {
                    afterBatchRunning.store(true, ordering: .relaxed)
                    await BlockingWork.run { afterBatch() }
                    afterBatchRunning.store(false, ordering: .relaxed)
                }
                return
            } catch let error as LibraryError {
                switch error {
                case .busy(_, let holder):
                    if !saidBusy {
                        logger.record(.waiting, ["reason": "the library is in use (\(holder))"])
                        saidBusy = true
                    }
                    guard await pause(ImportService.busyPause) else { break attempts }
                case .noLibrary, .otherLibrary:
                    // Gone between the look and the batch: `libraryIsThere` waits for it.
                    continue attempts
                default:
                    let pause = ImportService.failurePauses[min(failures, ImportService.failurePauses.count - 1)]
                    failures += 1
                    var fields: Logger.Metadata = ["reason": "\(error)", "code": "\(error.code)",
                                                   "files": .stringConvertible(batch.count), "retry": "in \(pause)"]
                    if let cause = error.cause?.code { fields["cause"] = "\(cause.name)" }
                    logger.record(.failed, level: .error, fields)
                    if failures == 1 { tally.withLock { $0.failed += batch.count } }
                    guard await self.pause(pause) else { break attempts }
                }
            } catch {
                // The shutdown cancelled the batch before it began.
                break attempts
            }
        }
        watcher.finished(batch.map { ($0.path, .retry) })
    }

    /// Sleeps, unless the daemon is stopping: false then.
    private func pause(_ duration: Duration) async -> Bool {
        guard (try? await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }) != nil else { return false }
        return !Task.isShuttingDownGracefully
    }

    /// Waits while the library the daemon started with is not at its path (its drive unmounted,
    /// the folder moved away or replaced by another library): says so once, and once more when
    /// it is back. Nothing is filed meanwhile, and the inbox keeps every file. False when the
    /// daemon is stopping.
    private func libraryIsThere() async -> Bool {
        var said = false
        while let problem = await BlockingWork.run({ libraryProblem() }) {
            if !said {
                var fields: Logger.Metadata = [
                    "library": "\(layout.root.path)",
                    "reason": "\(problem); nothing is filed and every inbox file stays until it is back",
                ]
                if let library = problem as? LibraryError {
                    fields["code"] = "\(library.code)"
                    if let cause = library.cause?.code { fields["cause"] = "\(cause.name)" }
                }
                logger.record(.libraryGone, level: .warning, fields)
                notifier?.status("waiting for the library \(layout.root.path)")
                said = true
            }
            guard await pause(ImportService.libraryCheck) else { return false }
        }
        if said {
            logger.record(.libraryBack, ["library": "\(layout.root.path)"])
            notifier?.status(tally.withLock { $0.status })
        }
        return !Task.isShuttingDownGracefully && !Task.isCancelled
    }

    /// Why the library the daemon files into is not at its path; nil when it is.
    private func libraryProblem() -> (any Error)? {
        do {
            switch try LibraryIdentity.state(of: layout) {
            case .identified(let identity) where identity.id == libraryID:
                return nil
            case .identified(let other):
                return LibraryError.otherLibrary(path: layout.root.path, expected: libraryID, found: other.id)
            case .unidentified:
                return LibraryError.otherLibrary(path: layout.root.path, expected: libraryID, found: nil)
            case .absent:
                return LibraryError.noLibrary(path: layout.root.path)
            }
        } catch {
            return error
        }
    }

    /// Whether the file filed from `source` is no longer at its path: gone, or another file (other
    /// size or time) there now. A link is looked at only for being there.
    static func leftWhileFiled(_ source: SourceFile) -> Bool {
        guard let info = SourcePath.status(source.path, followingLinks: false) else { return true }
        guard info.st_mode & S_IFMT == S_IFREG else { return false }
        let now = SourceFile(path: source.path, info: info)
        return now.size != source.size || now.modificationTime != source.modificationTime
    }

    /// Tells the watcher how each source of a filed batch ended: left the inbox (filed and
    /// removed, or quarantined by `QuarantineStep`), stayed, or to be tried again.
    private func settle(_ batch: [SourceFile], recorder: OutcomeRecorder, quarantined: QuarantinedSources, interrupted: Bool) {
        var endings: [(path: String, ending: InboxWatcher.Ending)] = []
        for source in batch {
            guard let outcome = recorder.outcome(of: source.path) else {
                // Not started before a shutdown: it stays for the next start.
                endings.append((source.path, .retry))
                continue
            }
            switch outcome.status {
            case .imported, .duplicate:
                if !outcome.sourceRemoved, ImportService.leftWhileFiled(source) {
                    // Deleted (or replaced by a new file of its name) after it was read and before
                    // the watcher knew it stayed: it has departed, recorded before the next batch,
                    // and a file now at its path is a new one, never this one edited.
                    departures.withLock { $0.append(source.path) }
                    endings.append((source.path, .left))
                } else if outcome.sourceRemoved || settings.keep {
                    endings.append((source.path, outcome.sourceRemoved ? .left : .stayed))
                } else {
                    logger.record(.kept, level: .warning, ["source": "\(SourcePath.displayed(source.path))",
                                                           "reason": "\(outcome.warnings.joined(separator: "; "))"])
                    endings.append((source.path, .stayed))
                }
            case .failed, .skipped, .unassigned:
                if let ending = quarantined.ending(of: source.path) {
                    endings.append((source.path, ending))
                } else if interrupted {
                    endings.append((source.path, .retry))
                } else if SourcePath.status(source.path, followingLinks: false) == nil {
                    // Gone from the inbox while it was worked on (deleted, renamed): nothing to quarantine.
                    endings.append((source.path, .left))
                } else if settings.keep {
                    log(outcome, event: .failed, level: .warning)
                    tally.withLock { $0.failed += 1 }
                    endings.append((source.path, .unfiled))
                } else {
                    // The quarantine did not look at it (the run was stopped): tried again.
                    endings.append((source.path, .retry))
                }
            }
        }
        for (path, ending) in endings {
            if case .incomplete = ending { continue }
            cutShortSources.forget(path)
        }
        let filedPhotos = batch.filter { source in
            guard let outcome = recorder.outcome(of: source.path) else { return false }
            return (outcome.status == .imported || outcome.status == .duplicate) && outcome.format != nil
        }.map(\.path)
        let inBatch = Set(batch.map(\.path))
        endings += retryingPending(after: filedPhotos).filter { !inBatch.contains($0.path) }
        watcher.finished(endings)
        notifier?.status(tally.withLock { $0.status })
        DaemonMemory.giveBack()
    }

    /// Moves a source that could not be filed into the library's quarantine (`QuarantineStep`,
    /// within the batch's session: the quarantine stages copies in the library's staging folder,
    /// which an import clears). One that cannot be quarantined stays in the inbox, listed as
    /// stuck in the library's index.
    func quarantine(_ source: SourceFile, _ outcome: SourceOutcome, index: any LibraryCatalog, layout: LibraryLayout) -> InboxWatcher.Ending {
        let reason = outcome.reason
        let quarantine = Quarantine(layout: layout)
        do {
            let entry = try quarantine.admit(source, stage: outcome.stage ?? .read, reason: reason)
            var fields: Logger.Metadata = [
                "source": "\(SourcePath.displayed(source.path))", "reason": "\(reason)",
                "destination": "\(SourcePath.displayed((try? quarantine.path(of: entry)) ?? entry.id))",
            ]
            if let code = outcome.errorCode { fields["code"] = "\(code)" }
            if let cause = outcome.cause { fields["cause"] = "\(cause.name)" }
            logger.record(.quarantined, level: .warning, fields)
            tally.withLock { $0.quarantined += 1 }
            if stuck.withLock({ $0.contains(source.path) }) { updateStuckSources([], forgetting: [source.path], index: index) }
            return .left
        } catch {
            let why = "\(reason); and it could not be quarantined: \(error)"
            logger.record(.stuck, level: .error, ["source": "\(SourcePath.displayed(source.path))",
                                                  "reason": "\(SourcePath.displayed(why))"])
            tally.withLock { $0.failed += 1 }
            updateStuckSources([StuckSource(path: source.path, reason: why, since: ISO8601DateFormatter().string(from: Date()))],
                               forgetting: [], index: index)
            return .unfiled
        }
    }

    /// Leaves a link not followed (`SourceLink`) in the inbox, listed as stuck with the reason
    /// (`dossier quarantine list` names it), and says why in the log: what it leads to is never
    /// read, nor copied into the quarantine. Tried again when it changes, and on SIGHUP.
    func refuse(_ source: SourceFile, _ outcome: SourceOutcome, index: any LibraryCatalog) -> InboxWatcher.Ending {
        let why = "\(outcome.reason); it stays in the inbox, unread"
        logger.record(.stuck, level: .warning, ["source": "\(SourcePath.displayed(source.path))", "reason": "\(why)",
                                                "code": "\(SourceLink.refusedCode)"])
        tally.withLock { $0.failed += 1 }
        updateStuckSources([StuckSource(path: source.path, reason: why, since: ISO8601DateFormatter().string(from: Date()))],
                           forgetting: [], index: index)
        return .unfiled
    }

    /// Leaves a source that waits for another file in the inbox (`QuarantineStep`), saying so
    /// once, until a photo of its name is filed from its folder (`retryingPending`).
    func pending(_ source: SourceFile, _ outcome: SourceOutcome) -> InboxWatcher.Ending {
        if pendingSources.withLock({ $0.insert(source.path).inserted }) {
            logger.record(.pending, ["source": "\(SourcePath.displayed(source.path))", "reason": "\(outcome.reason)"])
        }
        return .stayed
    }

    /// Leaves a source that reads cut short in the inbox (`QuarantineStep`), while it may still
    /// be written: taken again when it changes, and filed as it is once it has not (`HoldCutShortStep`).
    func leftCutShort(_ source: SourceFile, _ outcome: SourceOutcome) -> InboxWatcher.Ending {
        logger.record(.incomplete, ["source": "\(SourcePath.displayed(source.path))", "reason": "\(outcome.reason)"])
        return .incomplete
    }

    /// The waiting sources a filed photo was waited for by: those in its folder whose name is the
    /// photo's without its extension (`IMG_0001.AAE`, `IMG_0001.xmp`) or the photo's with one
    /// more (`IMG_0001.JPG.xmp`). Tried again, they find it through the index.
    private func retryingPending(after filed: [String]) -> [(path: String, ending: InboxWatcher.Ending)] {
        guard !filed.isEmpty else { return [] }
        return pendingSources.withLock { pending in
            let ready = pending.filter { path in
                let folder = (path as NSString).deletingLastPathComponent
                let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
                return filed.contains { photo in
                    let photoName = (photo as NSString).lastPathComponent.lowercased()
                    return (photo as NSString).deletingLastPathComponent == folder
                        && (name == photoName || name == (photoName as NSString).deletingPathExtension)
                }
            }
            pending.subtract(ready)
            return ready.sorted().map { ($0, .retry) }
        }
    }

    /// A source once stuck that is filed now comes off the list (`QuarantineStep`).
    func filed(_ source: SourceFile, index: any LibraryCatalog) {
        guard stuck.withLock({ $0.contains(source.path) }) else { return }
        updateStuckSources([], forgetting: [source.path], index: index)
    }

    /// Lists sources as stuck in the index, and takes others off the list, with the stuck files
    /// that have left the inbox since (deleted by hand).
    private func updateStuckSources(_ nowStuck: [StuckSource], forgetting left: [String], index: any LibraryCatalog) {
        let gone = stuck.withLock { $0 }.filter { SourcePath.status($0, followingLinks: false) == nil }
        do {
            try index.updateStuckSources(nowStuck, forgetting: left + gone)
            stuck.withLock { stuck in
                stuck.subtract(left + gone)
                stuck.formUnion(nowStuck.map(\.path))
            }
        } catch {
            logger.record(.failed, level: .error, ["reason": "the list of stuck files could not be updated: \(error)"])
        }
    }

    /// Whether the daemon leaves sources that are not filed in the inbox (`--keep`).
    var keepsSources: Bool { settings.keep }

    /// A filed source is logged as soon as it is filed (and out of the inbox), not with its batch.
    /// One filed damaged (cut short, or a decoder's warning) is said at warning level, `damaged`.
    private func logFiled(_ outcome: SourceOutcome) {
        guard outcome.status == .imported || outcome.status == .duplicate else { return }
        var damage = outcome.damaged ? outcome.warnings.first { $0.hasPrefix("damaged") } ?? "damaged" : nil
        if let cutShort = cutShortSources.takeLetThrough(outcome.source), damage == nil {
            damage = "damaged (\(cutShort)): filed as it is, unchanged for \(cutShortSources.longSettle)"
        }
        log(outcome, event: outcome.status == .imported ? .filed : .duplicate, level: damage == nil ? .info : .warning, damage: damage)
        tally.withLock { outcome.status == .imported ? ($0.filed += 1) : ($0.duplicates += 1) }
    }

    private func log(_ outcome: SourceOutcome, event: WatchEvent, level: Logger.Level = .info, damage: String? = nil) {
        var fields: Logger.Metadata = ["source": "\(SourcePath.displayed(outcome.source))"]
        if let damage {
            fields["damaged"] = .stringConvertible(true)
            fields["reason"] = "\(SourcePath.displayed(damage))"
        }
        if let subject = outcome.subject { fields["subject"] = "\(subject.path)" }
        if let destination = outcome.destination { fields["destination"] = "\(SourcePath.displayed(destination))" }
        if outcome.status == .failed || outcome.status == .skipped || outcome.status == .unassigned {
            fields["reason"] = "\(outcome.reason)"
            if let code = outcome.errorCode { fields["code"] = "\(code)" }
            if let cause = outcome.cause { fields["cause"] = "\(cause.name)" }
        } else if outcome.hasRecords || outcome.recordsRemoved > 0 {
            fields["recordsAdded"] = .stringConvertible(outcome.recordsAdded)
            fields["recordsDuplicate"] = .stringConvertible(outcome.recordsDuplicate)
            fields["recordsReplaced"] = .stringConvertible(outcome.recordsRemoved)
            // Which ones: the log is where a daemon's user sees what an edit took out.
            if !outcome.replacedRecords.isEmpty { fields["replaced"] = .array(outcome.replacedRecords.map { .string(SourcePath.displayed($0)) }) }
        }
        // The problems themselves, not a count: the log is where a daemon's user reads what to fix.
        if !outcome.problems.isEmpty { fields["problems"] = .array(outcome.problems.map { .string(SourcePath.displayed($0)) }) }
        // The daemon never overwrites a field typed by hand: it says what it changed and what it kept.
        let changed = outcome.profileChanges.filter { !$0.changed.isEmpty }
        if !changed.isEmpty {
            fields["profiles"] = "\(changed.map { "\($0.subject.path): \($0.changed.joined(separator: ", "))" }.joined(separator: "; "))"
        }
        let kept = outcome.profileChanges.flatMap { change in
            change.keptTyped.map { "\(change.subject.path) \($0.field) \($0.kept) (the file said \($0.imported))" }
        }
        if !kept.isEmpty { fields["profilesKept"] = "\(SourcePath.displayed(kept.joined(separator: "; ")))" }
        logger.record(event, level: level, fields)
    }
}
