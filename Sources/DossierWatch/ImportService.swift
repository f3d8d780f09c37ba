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

        public init(keep: Bool = false, jobs: Int = ImportOptions.defaultJobs, shutdownTimeout: Duration = .seconds(10)) {
            self.keep = keep
            self.jobs = jobs
            self.shutdownTimeout = shutdownTimeout
        }
    }

    /// How long to wait before trying the library again when it is busy, and after it failed.
    static let busyPause: Duration = .milliseconds(500)
    static let failurePauses: [Duration] = [.seconds(5), .seconds(30), .seconds(120), .seconds(600)]

    let watcher: InboxWatcher
    let layout: LibraryLayout
    let settings: Settings
    let logger: Logger
    /// Made anew for each batch: the library's keywords, species and subjects are read again.
    let makePipeline: @Sendable (ImportOptions) throws -> ImportPipeline
    let notifier: SystemdNotifier?
    private let tally = Mutex(Tally())

    struct Tally {
        var filed = 0
        var duplicates = 0
        var quarantined = 0
        var failed = 0

        var status: String {
            "watching; filed \(filed), duplicates \(duplicates), quarantined \(quarantined), failed \(failed)"
        }
    }

    public init(watcher: InboxWatcher, layout: LibraryLayout, settings: Settings, logger: Logger,
                notifier: SystemdNotifier?, makePipeline: @escaping @Sendable (ImportOptions) throws -> ImportPipeline) {
        self.watcher = watcher
        self.layout = layout
        self.settings = settings
        self.logger = logger
        self.notifier = notifier
        self.makePipeline = makePipeline
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
                    self.logger.info("stopping", metadata: ["reason": "finishing the files under way"])
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
            let reason = "the shutdown timeout (\(timeout)) passed; the files still under way stay in the inbox for the next start"
            logger.warning("stopped", metadata: ["reason": "\(reason)"])
            _exit(0)
        }
        deadline.start()
    }

    /// The library's configuration is read for every batch; SIGHUP says so in the log and reads
    /// the whole inbox again, so files left for want of a subject are looked at anew.
    private func reloadOnHangUp() async {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            logger.info("reload", metadata: ["reason": "SIGHUP: configuration and subjects are read again"])
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
        var failures = 0
        var saidBusy = false
        while true {
            let options = ImportOptions(move: !settings.keep, jobs: settings.jobs, waitForLock: false)
            let recorder = OutcomeRecorder { [self] outcome in logFiled(outcome) }
            do {
                let pipeline = try makePipeline(options)
                let summary = try await cancelWhenGracefulShutdown {
                    try await pipeline.run(found: batch.map { .file($0) }, listeners: [recorder])
                }
                await settle(batch, recorder: recorder, interrupted: summary.interrupted)
                return
            } catch let error as LibraryError {
                if case .busy(_, let holder) = error {
                    if !saidBusy {
                        logger.info("waiting", metadata: ["reason": "the library is in use (\(holder))"])
                        saidBusy = true
                    }
                    guard (try? await cancelWhenGracefulShutdown { try await Task.sleep(for: ImportService.busyPause) }) != nil,
                          !Task.isShuttingDownGracefully else { break }
                    continue
                }
                let pause = ImportService.failurePauses[min(failures, ImportService.failurePauses.count - 1)]
                failures += 1
                logger.error("failed", metadata: ["reason": "\(error)", "source": "\(batch.count) files",
                                                  "retry": "in \(pause)"])
                if failures == 1 { tally.withLock { $0.failed += batch.count } }
                guard (try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }) != nil,
                      !Task.isShuttingDownGracefully else { break }
            } catch {
                // The shutdown cancelled the batch before it began.
                break
            }
        }
        watcher.finished(batch.map { ($0.path, .retry) })
    }

    private func settle(_ batch: [SourceFile], recorder: OutcomeRecorder, interrupted: Bool) async {
        var endings: [(path: String, ending: InboxWatcher.Ending)] = []
        var toQuarantine: [(SourceFile, SourceOutcome)] = []
        for source in batch {
            guard let outcome = recorder.outcome(of: source.path) else {
                // Not started before a shutdown: it stays for the next start.
                endings.append((source.path, .retry))
                continue
            }
            switch outcome.status {
            case .imported, .duplicate:
                if outcome.sourceRemoved || settings.keep {
                    endings.append((source.path, outcome.sourceRemoved ? .left : .stayed))
                } else {
                    logger.warning("kept", metadata: ["source": "\(SourcePath.displayed(source.path))",
                                                      "reason": "\(outcome.warnings.joined(separator: "; "))"])
                    endings.append((source.path, .stayed))
                }
            case .failed, .skipped, .unassigned:
                if interrupted {
                    endings.append((source.path, .retry))
                } else if settings.keep {
                    log(outcome, event: "failed", level: .warning)
                    tally.withLock { $0.failed += 1 }
                    endings.append((source.path, .stayed))
                } else {
                    toQuarantine.append((source, outcome))
                }
            }
        }
        if !toQuarantine.isEmpty {
            endings += await quarantine(toQuarantine)
        }
        let left = endings.filter { if case .left = $0.ending { return true } else { return false } }.map(\.path)
        EmptiedFolders(inbox: watcher.inbox, subjects: layout.existingSubjects()).remove(above: left)
        watcher.finished(endings)
        notifier?.status(tally.withLock { $0.status })
        DaemonMemory.giveBack()
    }

    /// Moves failed sources into the library's quarantine, holding the library's lock (the
    /// quarantine stages copies in the library's staging folder, which an import clears).
    private func quarantine(_ sources: [(SourceFile, SourceOutcome)]) async -> [(path: String, ending: InboxWatcher.Ending)] {
        var lock: LibraryLock?
        while lock == nil {
            do {
                lock = try LibraryLock.acquire(layout, wait: false)
            } catch .busy {
                // A shutdown does not wait for the library: the sources stay for the next start.
                guard (try? await cancelWhenGracefulShutdown { try await Task.sleep(for: ImportService.busyPause) }) != nil,
                      !Task.isShuttingDownGracefully else { break }
            } catch {
                break
            }
        }
        defer { lock?.release() }
        let quarantine = Quarantine(layout: layout)
        return sources.map { source, outcome in
            let reason = outcome.reason
            guard lock != nil else { return (source.path, .retry) }
            do {
                let entry = try quarantine.admit(source, stage: outcome.stage ?? .read, reason: reason)
                logger.warning("quarantined", metadata: [
                    "source": "\(SourcePath.displayed(source.path))", "reason": "\(reason)",
                    "destination": "\(SourcePath.displayed((try? quarantine.path(of: entry)) ?? entry.id))",
                ])
                tally.withLock { $0.quarantined += 1 }
                return (source.path, .left)
            } catch {
                logger.error("failed", metadata: ["source": "\(SourcePath.displayed(source.path))",
                                                  "reason": "\(reason); and it could not be quarantined: \(error)"])
                tally.withLock { $0.failed += 1 }
                return (source.path, .stayed)
            }
        }
    }

    /// A filed source is logged as soon as it is filed (and out of the inbox), not with its batch.
    private func logFiled(_ outcome: SourceOutcome) {
        guard outcome.status == .imported || outcome.status == .duplicate else { return }
        log(outcome, event: outcome.status == .imported ? "filed" : "duplicate")
        tally.withLock { outcome.status == .imported ? ($0.filed += 1) : ($0.duplicates += 1) }
    }

    private func log(_ outcome: SourceOutcome, event: String, level: Logger.Level = .info) {
        var metadata: Logger.Metadata = ["source": "\(SourcePath.displayed(outcome.source))"]
        if let subject = outcome.subject { metadata["subject"] = "\(subject.path)" }
        if let destination = outcome.destination { metadata["destination"] = "\(SourcePath.displayed(destination))" }
        if outcome.status == .failed || outcome.status == .skipped || outcome.status == .unassigned {
            metadata["reason"] = "\(outcome.reason)"
        } else if outcome.hasRecords {
            metadata["records"] = "\(outcome.recordsAdded) added, \(outcome.recordsDuplicate) already filed"
        }
        if !outcome.problems.isEmpty { metadata["problems"] = "\(outcome.problems.count)" }
        logger.log(level: level, "\(event)", metadata: metadata)
    }
}
