import Foundation
import Logging

/// Runs an import: discover -> skip unchanged -> sniff and import -> route -> dedupe ->
/// transform -> file -> index -> report.
///
/// Up to `options.jobs` sources are worked on at once, each by one child task that takes it from
/// its bytes to a filed file; so at most that many photos are decoded at any moment, whatever
/// the size of the dump. The task driving the import settles each finished source alone, in the
/// order they finish: it records it in the index, removes the source for `--move`, and tells the
/// listeners, so neither the index nor the listeners see concurrent calls.
public struct ImportPipeline: Sendable {
    /// How many leading bytes importers get to recognise a source.
    public static let sniffLength = 4096
    /// Larger sources are refused before being read into memory.
    public static let maximumSourceSize: Int64 = 1 << 30

    public let registry: PluginRegistry
    public let layout: LibraryLayout
    public let options: ImportOptions
    public let logger: Logger

    public init(registry: PluginRegistry, layout: LibraryLayout, options: ImportOptions, logger: Logger) {
        self.registry = registry
        self.layout = layout
        self.options = options
        self.logger = logger
    }

    /// Imports everything under `paths`. Throws only for problems with the library itself
    /// (cannot create it, busy without waiting, index broken); a bad source is an outcome.
    /// Cancelling the task stops taking new sources and finishes the ones under way.
    public func run(_ paths: [String], listeners extraListeners: [any OutcomeListener] = [],
                    whileWaitingForLock: (String) -> Void = { _ in }) async throws(LibraryError) -> ImportSummary
    {
        let started = ContinuousClock.now
        let listeners = registry.listeners + extraListeners
        let session = try LibrarySession.open(layout, dryRun: options.dryRun, waitForLock: options.waitForLock,
                                              whileWaiting: whileWaitingForLock)
        let found = SourceDiscovery(excludedFolders: [layout.root.path]).discover(paths)
        var summary = ImportSummary(dryRun: options.dryRun)
        listeners.forEach { $0.receive(.started(sourceCount: found.count, dryRun: options.dryRun)) }
        var progress = Progress(total: found.count)
        // Property lists go first: they are where profiles come from, and a log in the same
        // import can then name those subjects. The name is only a hint for the order; what a
        // file is, its bytes decide.
        let (first, rest) = ImportPipeline.propertyListsFirst(found)
        for pass in [first, rest] where !pass.isEmpty && !Task.isCancelled {
            // Read anew for each pass: the first may have created subjects.
            let routing = RoutingContext(requestedSubject: options.requestedSubject, existingSubjects: knownSubjects(found),
                                         names: layout.subjectNames())
            let worker = SourceWorker(
                registry: registry, layout: layout, options: options, index: session.index,
                filer: Filer(layout: layout, index: session.index, dryRun: options.dryRun),
                context: PipelineContext(logger: logger, layout: layout, routing: routing,
                                         requestedKind: options.requestedKind))
            await work(on: pass, with: worker, index: session.index, summary: &summary, progress: &progress,
                       listeners: listeners)
        }
        summary.seconds = (ContinuousClock.now - started).seconds
        let finalSummary = summary
        listeners.forEach { $0.receive(.completed(finalSummary)) }
        withExtendedLifetime(session) {}
        return summary
    }

    struct Progress {
        let total: Int
        var completed = 0
    }

    /// Works on the sources, `options.jobs` at a time, settling each as it finishes.
    private func work(on sources: [SourceDiscovery.Found], with worker: SourceWorker, index: LibraryIndex?,
                      summary: inout ImportSummary, progress: inout Progress, listeners: [any OutcomeListener]) async {
        await withTaskGroup(of: WorkedSource.self) { group in
            var pending = sources.makeIterator()
            for _ in 0..<options.jobs {
                guard let next = pending.next() else { break }
                group.addTask { worker.work(on: next) }
            }
            while let worked = await group.next() {
                let outcome = settle(worked, index: index)
                summary.add(outcome)
                progress.completed += 1
                let (completed, total) = (progress.completed, progress.total)
                listeners.forEach { $0.receive(.finished(outcome, completed: completed, total: total)) }
                if !Task.isCancelled, let next = pending.next() {
                    group.addTask { worker.work(on: next) }
                }
            }
        }
    }

    /// The sources named `*.plist` first, the rest after, each in discovery order.
    static func propertyListsFirst(_ found: [SourceDiscovery.Found]) -> ([SourceDiscovery.Found], [SourceDiscovery.Found]) {
        var first: [SourceDiscovery.Found] = []
        var rest: [SourceDiscovery.Found] = []
        for entry in found {
            if case .file(let source) = entry, source.path.lowercased().hasSuffix(".plist") {
                first.append(entry)
            } else {
                rest.append(entry)
            }
        }
        return (first, rest)
    }

    /// The subjects an `ExistingSubjectRouter` may route to: those in the library, the one given
    /// with --subject, and those this very import names by pets/<id> or children/<id> folders, so
    /// that `inbox/leo/` goes to pets/leo whether or not the import that creates it came first.
    private func knownSubjects(_ found: [SourceDiscovery.Found]) -> Set<Subject> {
        var subjects = layout.existingSubjects()
        if let requested = options.requestedSubject { subjects.insert(requested) }
        let folderRouter = SubjectFolderRouter()
        let empty = RoutingContext(requestedSubject: nil, existingSubjects: [])
        for case .file(let source) in found {
            if case .subject(let subject) = folderRouter.subject(forPath: source, context: empty) {
                subjects.insert(subject)
            }
        }
        return subjects
    }

    /// Commits what a worker left for the driving task (records into their year files, custom
    /// items), records it all in the index and, for `--move`, removes the source: only now, after
    /// everything it gave is durable (fsynced by the filer and the store) and the index commit
    /// that records it returned.
    private func settle(_ worked: WorkedSource, index: LibraryIndex?) -> SourceOutcome {
        var worked = worked
        var recordFiles: [RecordFileSummary] = []
        do {
            if let pending = worked.pendingRecords {
                recordFiles = try commit(pending, into: &worked)
            }
            try fileCustomItems(&worked)
        } catch {
            worked.pendingRecords?.discard()
            var outcome = worked.outcome
            outcome.status = .failed
            outcome.error = "\(outcome.source): \(error)"
            return outcome
        }
        guard !options.dryRun, let index else { return worked.outcome }
        do {
            if worked.filed != nil || worked.imported != nil || !recordFiles.isEmpty {
                try index.record(worked.filed, recordFiles: recordFiles, source: worked.imported)
            }
        } catch {
            var outcome = worked.outcome
            outcome.status = .failed
            outcome.error = "\(outcome.source): filed, but \(error)"
            return outcome
        }
        guard options.move, [.imported, .duplicate].contains(worked.outcome.status),
              let source = worked.source, worked.outcome.destination != nil
        else { return worked.outcome }
        return removeSource(source, outcome: worked.outcome)
    }

    /// Merges a source's records into their year files; in a dry run only counts what it would add.
    private func commit(_ pending: PendingRecords, into worked: inout WorkedSource) throws -> [RecordFileSummary] {
        let store = RecordStore(layout: layout)
        let result = options.dryRun ? try store.wouldCommit(pending) : try store.commit(pending)
        worked.outcome.recordsAdded = result.added
        worked.outcome.recordsDuplicate = result.duplicate
        worked.outcome.status = result.added > 0 ? .imported : .duplicate
        let files = result.files
        let changed = result.changedFiles
        let subjects = pending.subjects
        worked.outcome.subject = subjects.first
        worked.outcome.subjects = subjects.count > 1 ? subjects : []
        if let first = files.first {
            worked.outcome.destination = try layout.url(forRelativePath: first).path
            if let source = worked.source, let subject = subjects.first {
                worked.imported = ImportedSource(
                    path: source.path, requestedSubject: options.requestedSubject?.path ?? "", size: source.size,
                    modificationTime: source.modificationTime, sha256: "", subject: subject.path, filedPath: first)
            }
        }
        return changed
    }

    /// Files custom items (profiles, species entries) one at a time.
    private func fileCustomItems(_ worked: inout WorkedSource) throws {
        guard !worked.customItems.isEmpty else { return }
        let context = FilingContext(layout: layout, dryRun: options.dryRun)
        var anyFiled = worked.outcome.recordsAdded > 0
        for item in worked.customItems {
            let result = try item.file(in: context)
            let path: String
            switch result {
            case .filed(let filedPath):
                anyFiled = true
                path = filedPath
            case .unchanged(let unchangedPath):
                path = unchangedPath
            }
            if worked.outcome.destination == nil { worked.outcome.destination = try layout.url(forRelativePath: path).path }
            if worked.outcome.subject == nil { worked.outcome.subject = item.subject }
            if worked.imported == nil, let source = worked.source {
                worked.imported = ImportedSource(
                    path: source.path, requestedSubject: options.requestedSubject?.path ?? "", size: source.size,
                    modificationTime: source.modificationTime, sha256: "", subject: item.subject?.path ?? "",
                    filedPath: path)
            }
        }
        worked.outcome.status = anyFiled || options.dryRun ? .imported : .duplicate
    }

    private func removeSource(_ source: SourceFile, outcome: SourceOutcome) -> SourceOutcome {
        var info = stat()
        guard stat(source.path, &info) == 0, SourceFile(path: source.path, info: info) == source else {
            logger.warning("not removing \(source.path): it changed while it was being imported")
            var kept = outcome
            kept.warnings.append("not removed: the source changed during the import")
            return kept
        }
        guard unlink(source.path) == 0 else {
            var kept = outcome
            kept.warnings.append("not removed: \(errnoMessage())")
            return kept
        }
        var removed = outcome
        removed.sourceRemoved = true
        return removed
    }
}
