import Foundation
import Logging

/// Runs an import: every source through the steps `ImportSteps` lists, in its order (the
/// registry's list: the standard steps and those its plugins add).
///
/// Up to `options.jobs` sources go through the working steps at once, each in one child task
/// that takes it from its bytes to what it files; so at most that many photos are decoded at any
/// moment, whatever the size of the dump. The task driving the import takes each source through
/// the settling steps alone, in the order they finish working (commit, index, remove, report),
/// so neither the index nor the listeners see concurrent calls. Everything that blocks
/// (reading, decoding, writing, fsyncing, committing) runs on `BlockingExecutor`'s threads;
/// Swift concurrency's cooperative pool only hands work on, so a daemon never starves it.
public struct ImportPipeline: Sendable {
    /// How many leading bytes importers get to recognise a source, at the least.
    public static let sniffLength = 4096
    /// How far the head of a text source grows until it holds a few whole lines (a CSV's first
    /// row may be a 5,000-character note or 10,000 columns): as far as a line may be long.
    public static let longestTextSniff = 1 << 20
    /// Larger sources are refused before being read into memory.
    public static let maximumSourceSize: Int64 = 1 << 30

    public let registry: PluginRegistry
    public let layout: LibraryLayout
    public let options: ImportOptions
    public let logger: Logger
    /// Hears each step's name as it runs for a source (the order tests).
    public var stepObserver: StepObserver?

    public init(registry: PluginRegistry, layout: LibraryLayout, options: ImportOptions, logger: Logger,
                stepObserver: StepObserver? = nil) {
        self.stepObserver = stepObserver
        self.registry = registry
        self.layout = layout
        self.options = options
        self.logger = logger
    }

    /// Imports everything under `paths`. Throws only for problems with the library itself
    /// (cannot create it, busy without waiting, index broken); a bad source is an outcome.
    /// Cancelling the task stops taking new sources and finishes the ones under way.
    public func run(_ paths: [String], listeners extraListeners: [any OutcomeListener] = [],
                    whileWaitingForLock: @escaping @Sendable (String) -> Void = { _ in }) async throws(LibraryError) -> ImportSummary
    {
        // Walking the folders blocks: on the blocking executor too.
        let found = await BlockingWork.run { SourceDiscovery(library: LibraryBoundary(root: layout.root.path)).discover(paths) }
        // A library is made only once a source an importer reads is found: paths that are all
        // missing, unreadable, passed over, links not followed or files of no kind Dossier reads
        // (a typo, an empty folder) leave no empty library behind. Decided before the library is
        // opened, so nothing is made only to be deleted again.
        var pipeline = self
        if options.access == .creatingIfAbsent,
           try await BlockingWork.run({ () throws(LibraryError) -> Bool in
               try !LibraryIdentity.state(of: layout).isIdentified && !holdsAReadableSource(found)
           }) {
            var options = self.options
            options.access = .existingIfAny
            pipeline = ImportPipeline(registry: registry, layout: layout, options: options, logger: logger, stepObserver: stepObserver)
        }
        return try await pipeline.run(found: found, listeners: extraListeners, whileWaitingForLock: whileWaitingForLock)
    }

    /// Whether any file found is one an importer reads, by its first bytes (`sniff`), stopping at
    /// the first: asked only where a library would be made for it, so a folder of nothing Dossier
    /// reads makes none.
    private func holdsAReadableSource(_ found: [SourceDiscovery.Found]) -> Bool {
        found.contains { entry in
            guard case .file(let source) = entry, source.link.map({ $0 == .followed }) ?? true,
                  let head = try? SourceWorker.sniffedHead(of: source) else { return false }
            return registry.importer(for: head) != nil
        }
    }

    /// Imports sources already found (the daemon's settled files, each routed below its inbox),
    /// in one library session: the lock is held, and the index open, until they are all settled.
    /// `adding` puts the caller's own steps into the list (the daemon's quarantine).
    public func run(found: [SourceDiscovery.Found], listeners extraListeners: [any OutcomeListener] = [],
                    adding steps: [PluginStep] = [],
                    whileWaitingForLock: @escaping @Sendable (String) -> Void = { _ in }) async throws(LibraryError) -> ImportSummary
    {
        var session = try await openSession(whileWaitingForLock: whileWaitingForLock)
        defer { session.close() }
        // What `verify` found damaged and can be filed again goes first, so the rest of the run
        // finds the library whole.
        let mending = await mendingPasses(session: &session)
        // Property lists go first: they are where profiles come from, and a log in the same
        // import can then name those subjects. The name is only a hint for the order; what a
        // file is, its bytes decide.
        let (first, rest) = ImportPipeline.propertyListsFirst(found)
        let listeners = registry.listeners + extraListeners
        let summary = try await execute(mending.passes + [Pass(sources: first, requestedSubject: options.requestedSubject),
                                                          Pass(sources: rest, requestedSubject: options.requestedSubject)],
                                        session: session, listeners: listeners, steps: registry.steps.adding(steps))
        await forgetMended(mending.copies, session: session, listeners: listeners)
        return summary
    }

    /// Reads again, from the library's kept copies, the sources that left problems in the ledger
    /// (`dossier problems retry`): what now resolves is filed, and each source's problems are
    /// replaced by those that remain. Entries that name no subject go where the source's path
    /// (or --subject) sent them the first time.
    public func retry(_ sources: [RetrySource], listeners extraListeners: [any OutcomeListener] = [],
                      whileWaitingForLock: @escaping @Sendable (String) -> Void = { _ in }) async throws(LibraryError) -> ImportSummary
    {
        let session = try await openSession(whileWaitingForLock: whileWaitingForLock)
        defer { session.close() }
        var passes: [Pass] = []
        for (subject, group) in Dictionary(grouping: sources, by: \.routeSubject).sorted(by: { ($0.key?.path ?? "") < ($1.key?.path ?? "") }) {
            let (first, rest) = ImportPipeline.propertyListsFirst(group.map(readInPlace))
            passes += [Pass(sources: first, requestedSubject: subject), Pass(sources: rest, requestedSubject: subject)]
        }
        return try await execute(passes, session: session, listeners: registry.listeners + extraListeners,
                                 steps: registry.steps)
    }

    /// A copy the library keeps (a source under `sources/`, an original under `originals/`), to
    /// be read where it is, as the source it was kept from.
    func readInPlace(_ source: RetrySource) -> SourceDiscovery.Found {
        let kept = (try? layout.url(forRelativePath: source.keptPath).path) ?? source.keptPath
        guard layout.files.isFile(kept), let info = SourcePath.status(kept, followingLinks: false) else {
            return .unreadable(path: source.originalPath, reason: "its kept copy \(kept) is missing")
        }
        // No folder names: where the source's path sent its entries is `routeSubject`.
        return .file(SourceFile(path: source.originalPath, info: info, readPath: kept,
                                namedFolder: (source.originalPath as NSString).deletingLastPathComponent))
    }

    /// Opens the library for this run. Waiting for another import's lock blocks in `flock`, so it
    /// is done on `BlockingExecutor`, off the cooperative pool.
    private func openSession(whileWaitingForLock: @escaping @Sendable (String) -> Void) async throws(LibraryError)
        -> LibrarySession
    {
        let (layout, options) = (self.layout, self.options)
        return try await BlockingWork.run { () throws(LibraryError) in
            try LibrarySession.open(layout, access: options.access, dryRun: options.dryRun,
                                    waitForLock: options.waitForLock, whileWaiting: whileWaitingForLock)
        }
    }

    /// Sources worked on together, under one `--subject` (or none).
    struct Pass {
        let sources: [SourceDiscovery.Found]
        let requestedSubject: Subject?
        /// Good copies of damaged photos, filed again (`ImportPipeline+Mending`): never removed,
        /// and never quarantined by the daemon's own steps, whatever the run does to its sources.
        var mends = false
    }

    /// Throws when the library itself fails (its index, a read-only or full disk): every other
    /// source would fail the same way, so the import stops and says so once.
    private func execute(_ passes: [Pass], session: LibrarySession, listeners: [any OutcomeListener],
                         steps: ImportSteps) async throws(LibraryError) -> ImportSummary {
        let started = ContinuousClock.now
        let total = passes.reduce(0) { $0 + $1.sources.count }
        // No library named where none was made (an import that found nothing to read).
        var summary = ImportSummary(dryRun: options.dryRun,
                                    library: session.identity != nil || options.dryRun ? layout.root.path : nil)
        for notice in session.notices { listeners.forEach { $0.receive(.notice(notice)) } }
        listeners.forEach { $0.receive(.started(sourceCount: total, dryRun: options.dryRun)) }
        var progress = Progress(total: total)
        var libraryFailure: LibraryError?
        let dryRunFilings = DryRunFilings()
        // Reading the library's settings and recording departures block: on the executor.
        let (libraryLayout, departures, dryRun) = (layout, options.departures, options.dryRun)
        let (timeZone, originalsSetting) = try await BlockingWork.run { () throws(LibraryError) -> (TimeZone, OriginalsPolicy?) in
            if let index = session.index, !dryRun, !departures.isEmpty {
                let now = ImportPipeline.now()
                try index.record(departures.map { SourceDeparture(path: $0, at: now) })
            }
            return (try LibraryTimeZone.of(libraryLayout), try OriginalsPolicy.setting(of: libraryLayout))
        }
        let sourcesInRun = Set(passes.flatMap { $0.sources.compactMap { found -> String? in
            if case .file(let source) = found { source.path } else { nil }
        } })
        for pass in passes where !pass.sources.isEmpty && !Task.isCancelled && libraryFailure == nil {
            var options = self.options
            options.requestedSubject = pass.requestedSubject
            if pass.mends { options.move = false }
            options.originals = options.originals ?? originalsSetting ?? .lossy
            // Read anew for each pass (the one before may have created subjects), on the executor.
            let (requested, createsSubjects) = (options.requestedSubject, options.createsSubjects)
            let routing = await BlockingWork.run {
                RoutingContext(requestedSubject: requested,
                               existingSubjects: knownSubjects(pass.sources, requestedSubject: requested),
                               names: layout.subjectNames(), createsSubjects: createsSubjects)
            }
            let worker = SourceWorker(
                registry: registry, layout: layout, options: options, index: session.index,
                filer: Filer(layout: layout, index: session.index, dryRun: options.dryRun),
                context: PipelineContext(logger: logger, layout: layout, routing: routing,
                                         requestedKind: options.requestedKind, timeZone: timeZone,
                                         scratchFolder: options.dryRun ? .temporary : .staging(of: layout),
                                         index: session.index, sourcesInRun: sourcesInRun),
                observer: stepObserver, dryRunFilings: dryRunFilings)
            await work(on: pass.sources, through: pass.mends ? registry.steps : steps, with: worker, summary: &summary, progress: &progress,
                       listeners: listeners, libraryFailure: &libraryFailure)
        }
        if let libraryFailure { throw libraryFailure }
        summary.interrupted = Task.isCancelled
        summary.seconds = (ContinuousClock.now - started).seconds
        let finalSummary = summary
        listeners.forEach { $0.receive(.completed(finalSummary)) }
        return summary
    }

    struct Progress {
        let total: Int
        var completed = 0
    }

    /// Takes the sources through the steps: the working ones `options.jobs` sources at a time,
    /// the settling ones for each source as it finishes working.
    private func work(on sources: [SourceDiscovery.Found], through steps: ImportSteps, with worker: SourceWorker,
                      summary: inout ImportSummary, progress: inout Progress, listeners: [any OutcomeListener],
                      libraryFailure: inout LibraryError?) async {
        let run = ImportRun(worker: worker, pipeline: self, listeners: listeners)
        await withTaskGroup(of: SourceInProgress.self) { group in
            var pending = sources.makeIterator()
            for _ in 0..<options.jobs {
                guard let next = pending.next() else { break }
                group.addTask(executorPreference: BlockingExecutor.shared) { steps.work(on: next, in: run) }
            }
            while var source = await group.next() {
                // Once the library failed, what is still under way is left (staging is cleared by
                // the next run) and not reported: the one line that says why is the report.
                guard libraryFailure == nil else { continue }
                (source.completed, source.total) = (progress.completed + 1, progress.total)
                let settled = await BlockingWork.run { [source] in steps.settle(source, in: run) }
                if let failure = settled.worked?.libraryFailure {
                    // Not the source's fault: no outcome for it; the sources under way finish.
                    libraryFailure = libraryFailure ?? failure
                    continue
                }
                if let outcome = settled.outcome { summary.add(outcome) }
                progress.completed += 1
                if !Task.isCancelled, libraryFailure == nil, let next = pending.next() {
                    group.addTask(executorPreference: BlockingExecutor.shared) { steps.work(on: next, in: run) }
                }
            }
        }
        // The photos' rows still waiting, also when the run was interrupted: every source
        // reported filed is named by the index.
        if let index = run.index, !run.indexBatch.isEmpty {
            do {
                try await BlockingWork.run { () throws(LibraryError) in try run.indexBatch.commit(into: index) }
            } catch {
                libraryFailure = libraryFailure ?? error
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
    private func knownSubjects(_ found: [SourceDiscovery.Found], requestedSubject: Subject?) -> Set<Subject> {
        var subjects = layout.existingSubjects()
        if let requested = requestedSubject { subjects.insert(requested) }
        // Folders name new subjects only when asked to (`--create`).
        guard options.createsSubjects else { return subjects }
        let folderRouter = SubjectFolderRouter()
        let empty = RoutingContext(requestedSubject: nil, existingSubjects: [], createsSubjects: true)
        for case .file(let source) in found {
            if case .subject(let subject) = folderRouter.subject(forPath: source, context: empty) {
                subjects.insert(subject)
            }
        }
        return subjects
    }

    /// Whether a source's records replace those of its earlier versions: not in a dry run, not
    /// when its problems are retried (the same version, read again), and not for a source that
    /// has left its path (a quarantined file retried is a new source, whatever came after it).
    var replacesEarlierVersions: Bool {
        !options.dryRun && !options.retryingProblems && options.history == .followsPath
    }

    /// The index rows of this version of a text source, for each year file its records belong
    /// to: current; departed at once for a source that has left its path; as its earlier rows
    /// say when its problems are retried (the version does not change by being read again).
    func versionRows(of source: SourceFile, kept: String, yearFiles: [String], worked: WorkedSource, birthTime: Int64?,
                             index: any LibraryCatalog) throws(LibraryError) -> [SourceYearFile] {
        var state = SourceYearFile(sourcePath: source.path, keptPath: kept, yearFile: "", routeSubject: worked.pathSubject?.path)
        // The file it was read from (not a kept copy read in place: that is no file at its path).
        if source.readPath == source.path, let identity = source.identity, let birthTime { state.file = (identity, birthTime) }
        if options.history == .departed { state.departedAt = ImportPipeline.now() }
        if options.retryingProblems, let earlier = try index.version(ofSource: source.path, kept: kept) {
            (state.superseded, state.departedAt, state.routeSubject) = (earlier.superseded, earlier.departedAt, earlier.routeSubject)
            state.file = earlier.file
        }
        return yearFiles.map { yearFile in
            var row = state
            row.yearFile = yearFile
            return row
        }
    }

    static func now() -> String { stamp(Date()) }

    /// A time as the index writes it (`2024-01-02T03:04:05Z`, as `ISO8601DateFormatter` does). A
    /// format style, not a formatter: making an `ISO8601DateFormatter` costs more than the rest of
    /// a stamp, and every file filed is stamped.
    static func stamp(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }

    /// Gives a text source's staged copy its place under `sources/` (nothing is kept of a source
    /// that gave nothing: no records, no profiles, no problems); the source's index row then
    /// points at the kept copy, which is what `--move` checks before removing the source.
    func keepSource(_ worked: inout WorkedSource) throws -> KeptSource? {
        guard let copy = worked.keptCopy else { return nil }
        // A text source that gave no records is kept too: its problem in the ledger names the copy.
        let skippedWithAProblem = worked.outcome.status == .skipped && !worked.ledger.isEmpty
        guard worked.outcome.status != .skipped || skippedWithAProblem, !options.dryRun else {
            try? layout.files.remove(copy.stagedPath)
            return nil
        }
        try SourceKeeper(layout: layout).keep(copy)
        let path = copy.relativePath
        worked.safeCopies.append(SafeCopy(path: path, digest: copy.digest))
        return KeptSource(sha256: copy.digest.hex, path: path, size: copy.size)
    }

    /// The source's problems as ledger rows, each with its line as written (read back from the
    /// kept copy where the importer did not give it).
    func ledgerEntries(of worked: WorkedSource, keptPath: String?) -> SourceLedger {
        let foundAt = ImportPipeline.now()
        let missing = Set(worked.ledger.filter { $0.text == nil }.compactMap(\.line))
        let lines = keptPath.flatMap { missing.isEmpty ? nil : try? SourceKeeper(layout: layout).lines(missing, ofKept: $0) } ?? [:]
        return SourceLedger(
            sourcePath: worked.outcome.source, keptPath: keptPath,
            problems: worked.ledger.map { problem in
                LedgerProblem(sourcePath: worked.outcome.source, keptPath: keptPath, line: problem.line,
                              text: problem.text ?? problem.line.flatMap { lines[$0] }, reason: problem.reason,
                              foundAt: foundAt, routeSubject: worked.pathSubject?.path)
            })
    }

    /// Takes out of their year files the records of the source's earlier versions (its lineage)
    /// that the new version no longer gives (an edited log's corrected lines replace the old
    /// ones), unless another source with the same bytes still gives them: those are handed on to
    /// it. Counts the replaced ones in the outcome, and returns the year files' summaries with
    /// those that changed.
    func replace(_ lineage: [SourceYearFile], of source: SourceFile, keeping ids: [String: Set<UInt64>],
                         index: any LibraryCatalog, into worked: inout WorkedSource,
                         recordFiles: [RecordFileSummary]) throws -> [RecordFileSummary] {
        guard !lineage.isEmpty else { return recordFiles }
        // For each year file, each earlier version's kept copy and the source that inherits its
        // records there (nil: none does).
        var heirs: [String: [String: String?]] = [:]
        for version in lineage {
            let heir = try index.otherCurrentSource(keptAs: version.keptPath, yearFile: version.yearFile,
                                                    routeSubject: version.routeSubject, otherThan: source.path)
            heirs[version.yearFile, default: [:]].updateValue(heir, forKey: version.keptPath)
        }
        var summaries = Dictionary(recordFiles.map { ($0.path, $0) }, uniquingKeysWith: { $1 })
        let store = RecordStore(layout: layout)
        for (file, versions) in heirs.sorted(by: { $0.key < $1.key }) {
            guard let (subject, year) = RecordGroup.parse(relativePath: file) else { continue }
            let removal = try store.removeRecords(ofSource: source.path, versions: versions, keeping: ids[file] ?? [],
                                                  fromYearFile: file, subject: subject, year: year)
            worked.outcome.recordsRemoved += removal.removed
            worked.outcome.replacedRecords += removal.records.prefix(RecordStore.listedRemovals - worked.outcome.replacedRecords.count)
            if let summary = removal.summary { summaries[summary.path] = summary }
        }
        if worked.outcome.recordsRemoved > 0 && worked.outcome.status == .duplicate { worked.outcome.status = .imported }
        return summaries.values.sorted { $0.path < $1.path }
    }

    /// Merges a source's records into their year files; in a dry run only counts what it would add.
    func commit(_ pending: PendingRecords, into worked: inout WorkedSource, collectingIDsIn collected: Set<String>,
                dryRunFilings: DryRunFilings) throws -> ([RecordFileSummary], [String: Set<UInt64>]) {
        let store = RecordStore(layout: layout)
        // A retry reads the same version again, after the library's settings changed: what now
        // reads differently (a unit settled) replaces what its first reading filed.
        let result = options.dryRun ? try store.wouldCommit(pending, notYetAdded: dryRunFilings.recordsNotYetAdded)
            : try store.commit(pending, collectingIDsIn: collected, rereading: options.retryingProblems)
        worked.recordYearFiles = result.files
        worked.outcome.recordsAdded = result.added
        worked.outcome.recordsDuplicate = result.duplicate
        worked.outcome.recordsRemoved += result.replaced
        // A photo the source gave and filed anew keeps it imported, whatever its records did.
        // One that was not filed whole (a photo in it with no subject) stays so, whatever its records did.
        let photosFiledAnew = worked.outcome.status == .imported && !worked.filed.isEmpty
        if [.imported, .duplicate].contains(worked.outcome.status) {
            worked.outcome.status = result.added > 0 || result.replaced > 0 || photosFiledAnew ? .imported : .duplicate
        }
        let files = result.files
        let changed = result.changedFiles
        let subjects = pending.subjects
        if worked.filed.isEmpty {
            worked.outcome.subject = subjects.first
            worked.outcome.subjects = subjects.count > 1 ? subjects : []
        }
        if let first = files.first, worked.outcome.destination == nil {
            worked.outcome.destination = try layout.url(forRelativePath: first).path
            if let source = worked.source, let subject = subjects.first {
                worked.imported = ImportedSource(source, requestedSubject: options.requestedSubject?.path ?? "", sha256: "",
                                                 subject: subject.path, filedPath: first)
            }
        }
        return (changed, result.ids)
    }

    /// Files custom items (profiles, species entries) one at a time, gathering what each did to
    /// a profile per subject, so a source of several profiles reports every one.
    func fileCustomItems(_ worked: inout WorkedSource) throws {
        guard !worked.customItems.isEmpty else { return }
        let context = FilingContext(layout: layout, dryRun: options.dryRun, overwritesTypedFields: options.overwritesTypedFields)
        var anyFiled = worked.outcome.recordsAdded > 0
        for item in worked.customItems {
            let result = try item.file(in: context)
            if result.wroteFile { anyFiled = true }
            if let change = result.profileChange, !change.isEmpty { worked.outcome.noting(change) }
            if worked.outcome.destination == nil { worked.outcome.destination = try layout.url(forRelativePath: result.path).path }
            if worked.outcome.subject == nil { worked.outcome.subject = item.subject }
            if worked.imported == nil, let source = worked.source {
                worked.imported = ImportedSource(source, requestedSubject: options.requestedSubject?.path ?? "", sha256: "",
                                                 subject: item.subject?.path ?? "", filedPath: result.path)
            }
        }
        // A source of several subjects' profiles names them all, as one of several subjects' records does.
        let profiled = worked.outcome.profileChanges.map(\.subject)
        var subjects = worked.outcome.subjects.isEmpty ? [worked.outcome.subject].compactMap { $0 } : worked.outcome.subjects
        for subject in profiled where !subjects.contains(subject) { subjects.append(subject) }
        if subjects.count > 1 { worked.outcome.subjects = subjects }
        worked.outcome.status = anyFiled || options.dryRun ? .imported : .duplicate
    }

    /// Removes a source once its content is safe in the library: the file that holds it there is
    /// a regular file (no link) whose bytes hash to what was filed, fsynced with its folder, and
    /// the source is neither inside the library (by device and inode, whatever path or mount it
    /// is seen through) nor that very file, and has not changed since it was read: its whole
    /// status is as found, and, where that status proves nothing (racy when taken, or its change
    /// time alone moved), its bytes hash again to `digestAsRead`. A source read
    /// from the quarantine (`dossier quarantine retry`) leaves it the same way, with its note.
    ///
    /// The index learns the source departed before it goes (with the commit that recorded it,
    /// `departure`, or here), so a file that lands on its path later is never taken for it
    /// edited (and never replaces its records); if it cannot be removed after all, that is
    /// taken back.
    func removeSource(_ source: SourceFile, safeCopies: [SafeCopy], digestAsRead: ContentDigest?, outcome: SourceOutcome,
                      index: any LibraryCatalog, departure: SourceDeparture?) -> SourceOutcome {
        var departure = departure
        func kept(_ reason: String) -> SourceOutcome {
            if let departure { try? index.undo(departure) }
            var kept = outcome
            kept.warnings.append("not removed: \(reason)")
            return kept
        }
        guard !safeCopies.isEmpty else { return kept("the library holds no checked copy of it") }
        let target = source.readPath
        let quarantined = target.hasPrefix(layout.quarantineFolder.path + "/")
        guard quarantined || !LibraryBoundary(root: layout.root.path).contains(target) else {
            return kept("it lies inside the library")
        }
        for safeCopy in safeCopies {
            do {
                let copy = try layout.url(forRelativePath: safeCopy.path).path
                guard try Filer(layout: layout, index: nil, dryRun: false).holdsSameBytes(copy, digest: safeCopy.digest) else {
                    return kept("its copy \(copy) in the library does not hold the bytes that were filed")
                }
                if let copyInfo = SourcePath.status(copy, followingLinks: false), let sourceInfo = SourcePath.status(target),
                   copyInfo.st_dev == sourceInfo.st_dev, copyInfo.st_ino == sourceInfo.st_ino {
                    return kept("it is the library's own copy \(copy)")
                }
                try layout.files.syncFile(copy)
                try layout.files.syncFolder((copy as NSString).deletingLastPathComponent)
            } catch {
                return kept("its copy in the library could not be checked: \(error)")
            }
        }
        // Its whole status as when it was found (a same-size edit whose time was put back moves its
        // change time): bytes that changed after they were read are never removed unfiled.
        guard let info = SourcePath.status(target, followingLinks: source.link == .followed && !quarantined) else {
            return kept("the source changed during the import")
        }
        let now = SourceFile(path: target, info: info)
        // A status taken too soon after the file's last change proves nothing (an edit later in the
        // same second keeps it, on a file system of whole seconds), and a change time that alone
        // moved may be another name of the file removed (hard links) as well as an edit: either
        // way its bytes are read again, and it goes only if they are still those filed.
        let changeTimeAlone = now.onlyChangeTimeMoved(since: source)
        guard changeTimeAlone || now.isUnchanged(since: source) else { return kept("the source changed during the import") }
        if source.statusIsRacy || changeTimeAlone {
            guard let digestAsRead else { return kept("its bytes could not be checked again against those filed") }
            guard (try? source.currentDigest()) == digestAsRead else { return kept("the source changed during the import") }
        }
        if quarantined {
            do {
                // The file first: a note left alone is passed over, a file without its note would be hidden.
                try layout.files.remove(target)
                try layout.files.remove(target + Quarantine.noteSuffix)
            } catch {
                return kept("\(error)")
            }
        } else {
            if departure == nil {
                let marked = SourceDeparture(path: source.path, at: ImportPipeline.now())
                do { try index.record(marked) } catch { return kept("\(error)") }
                departure = marked
            }
            if SourcePath.withFileSystemPath(target, { unlink($0) }) != 0 { return kept(errnoMessage()) }
        }
        var removed = outcome
        removed.sourceRemoved = true
        return removed
    }
}
