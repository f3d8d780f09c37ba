import Foundation
import Synchronization

/// The sink one source's items flow into: each is routed as it arrives; records are transformed
/// in batches behind the reader and spilled to sorted runs (`RecordBatchWriter`); a photo is
/// filed at once; custom items wait for the driving task. Memory stays bounded by a few batches
/// and the spill's buffer, whatever the size of the source.
final class SourceCollector: ItemSink {
    /// Records handed to the batch writer at a time: the drafts and lines of the batches under
    /// way are most of an import's memory past its fixed part, so the batch is as small as it
    /// can be without costing time (docs/performance.md, "SourceCollector.batchSize").
    static let batchSize = 2048
    /// A long list of problems helps no one on a terminal: past this many, only a count is shown.
    static let problemLimit = 100
    /// The ledger keeps every problem up to this many per source, then one that counts the rest:
    /// the kept copy holds every line, so nothing is lost, and a file of a million bad lines does
    /// not fill the index.
    static let ledgerLimit = 10_000

    private let worker: SourceWorker
    private let source: SourceFile
    /// The library's copy of the source, named in every record's `source`.
    private let keptSource: String?
    /// Made with the first batch of records: a photo never sets up the record machinery (its
    /// lanes, buffers and spill).
    @exclusivity(unchecked) private var records: RecordBatchWriter?
    // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
    @exclusivity(unchecked) private var batch: [RecordDraft] = []
    /// What the photos in it came to, merged (`WorkedSource.add`): a source may hold several.
    @exclusivity(unchecked) private var photo: WorkedSource?
    /// Records handed on for filing, so a source that gave photos and records files both.
    @exclusivity(unchecked) private var recordCount = 0
    @exclusivity(unchecked) private var customItems: [any CustomItem] = []
    @exclusivity(unchecked) private var problems: [String] = []
    @exclusivity(unchecked) private var hiddenProblems = 0
    @exclusivity(unchecked) private var ledger: [SourceProblem] = []
    @exclusivity(unchecked) private var unledgered = 0
    /// Problems with lines that were meant as entries (an unknown name, an impossible date), as
    /// against lines with no date at all.
    @exclusivity(unchecked) private var entryProblems = 0
    @exclusivity(unchecked) private var reading: String?
    @exclusivity(unchecked) private var unassignedReason: String?
    @exclusivity(unchecked) private var unassignedLines: [Int] = []
    @exclusivity(unchecked) private var unassignedCount = 0
    /// Where the source's path routes its items: the same for every item without a subject of
    /// its own, so worked out once.
    @exclusivity(unchecked) private var pathDecision: RoutingDecision?
    /// Items have begun to arrive (and be routed).
    @exclusivity(unchecked) private var routing = false

    init(worker: SourceWorker, source: SourceFile, keptSource: String?) {
        self.worker = worker
        self.source = source
        self.keptSource = keptSource
    }

    func accept(_ item: consuming Item) throws {
        if !routing {
            worker.observe("route", source)
            routing = true
        }
        switch consume item {
        case .record(let draft):
            if draft.subject != nil {
                batch.append(draft)
            } else {
                guard let subject = pathSubject(for: .record(draft)) else { return }
                var routed = draft
                routed.subject = subject
                batch.append(routed)
            }
            recordCount += 1
            if batch.count >= SourceCollector.batchSize { try flush() }
        case .photo(var photo):
            if photo.subject == nil {
                guard let subject = pathSubject(for: .photo(photo)) else { return }
                photo.subject = subject
            }
            add(try worker.file(photo))
        case .custom(var custom):
            if custom.needsSubject && custom.subject == nil {
                guard let subject = pathSubject(for: .custom(custom)) else { return }
                custom.subject = subject
            }
            worker.observe("transform", source)
            for case .custom(let transformed) in try worker.transform(ItemBatch(items: [.custom(custom)])).items {
                customItems.append(transformed)
            }
        }
    }

    /// The subject the source's path gives an item that names none; nil (and the item noted
    /// as unassigned) when the path gives none. The item is only looked at the first time and
    /// when it is not filed, so a record is made into one only then.
    private func pathSubject(for item: @autoclosure () -> Item) -> Subject? {
        let decision = pathDecision ?? worker.route(item(), from: source)
        pathDecision = decision
        switch decision {
        case .subject(let subject):
            return subject
        case .unassigned(let reason):
            noteUnassigned(item(), reason: reason)
        case .undecided:
            noteUnassigned(item(), reason: SourceWorker.noSubjectReason)
        }
        return nil
    }

    var sourceSubject: Subject? {
        // Routers route by the source; the probe stands for any record that names no subject.
        let probe = RecordDraft(source: RecordSource(path: source.path, line: 0),
                                date: RecordDate(year: 2000, month: 1, day: 1)!, body: "", text: "")
        let decision = pathDecision ?? worker.route(.record(probe), from: source)
        pathDecision = decision
        if case .subject(let subject) = decision { return subject }
        return nil
    }

    func report(_ problem: SourceProblem) {
        addToLedger(problem)
        if !problem.isUndated { entryProblems += 1 }
        guard problems.count < SourceCollector.problemLimit else {
            hiddenProblems += 1
            return
        }
        problems.append("\(source.path): \(problem.description)")
    }

    func describe(reading: String) {
        self.reading = reading
    }

    private func addToLedger(_ problem: SourceProblem) {
        if ledger.count < SourceCollector.ledgerLimit { ledger.append(problem) } else { unledgered += 1 }
    }

    /// Hands the waiting records to the batch writer, which works on them while the importer
    /// goes on reading.
    func flush() throws {
        guard !batch.isEmpty else { return }
        // Checked once a batch: an interrupted import abandons a long log whole (nothing of it
        // is filed) rather than read it to its end first.
        if Task.isCancelled { throw CancellationError() }
        var full: [RecordDraft] = []
        full.reserveCapacity(SourceCollector.batchSize)
        swap(&full, &batch)
        let writer = records ?? RecordBatchWriter(worker: worker, source: source, keptSource: keptSource)
        records = writer
        try writer.submit(full)
    }

    /// What the worker hands the driving task.
    func finish() throws -> WorkedSource {
        var worked = try finishOutcome()
        if unledgered > 0 {
            ledger.append(SourceProblem(line: nil, reason: "and \(unledgered) more lines not filed (read them in the kept copy)"))
        }
        worked.ledger = ledger
        if case .subject(let subject) = pathDecision { worked.pathSubject = subject }
        return worked
    }

    private func finishOutcome() throws -> WorkedSource {
        var worked = try workedWithoutReading()
        worked.outcome.reading = reading
        return worked
    }

    private func workedWithoutReading() throws -> WorkedSource {
        if hiddenProblems > 0 { problems.append("\(source.path): and \(hiddenProblems) more problems") }
        if unassignedCount > 0, let reason = unassignedReason {
            let lines = unassignedLines.map(String.init).joined(separator: ", ")
            let more = unassignedCount > unassignedLines.count ? " and \(unassignedCount - unassignedLines.count) more" : ""
            let entries = unassignedCount == 1 ? "1 entry" : "\(unassignedCount) entries"
            problems.append("\(source.path): \(entries) not filed (\(unassignedLines.count == 1 ? "line" : "lines") \(lines)\(more)): \(reason)")
        }
        if var photo, recordCount == 0, customItems.isEmpty {
            records?.discard()
            photo.outcome.problems = problems
            return photo
        }
        let pending = try records?.finish() ?? PendingRecords(files: worker.layout.files)
        if var photo {
            // Photos and records from one source: the records are committed with it, the
            // photos' files indexed beside them.
            let subjects = Set(pending.subjects + photo.outcome.subjects + [photo.outcome.subject].compactMap { $0 })
            photo.outcome.subjects = subjects.count > 1 ? subjects.sorted { $0.path < $1.path } : []
            photo.pendingRecords = pending.total > 0 ? pending : nil
            photo.customItems = customItems
            for problem in records?.transformProblems() ?? [] { report(problem) }
            photo.outcome.problems = problems
            return photo
        }
        for problem in records?.transformProblems() ?? [] { report(problem) }
        if pending.total == 0 && customItems.isEmpty {
            if unassignedCount == 0 && entryProblems > 0 {
                // A log whose every entry has a problem (each names an unknown subject, say):
                // each is reported and kept in the ledger, and the source is not removed.
                let lines = ledger.count + unledgered
                return WorkedSource(outcome: SourceOutcome(
                    source: source.path, status: .failed, stage: .read,
                    error: "\(source.path): nothing filed: every entry has a problem (\(lines) \(lines == 1 ? "line" : "lines")); "
                        + "fix them and run `dossier problems retry`",
                    problems: problems), source: source)
            }
            guard unassignedCount > 0 else {
                // Nothing read at all: text that is no log (a README, subtitles), not a log full
                // of mistakes; listing every line as a problem would help no one. The file itself
                // is one problem in the ledger, kept with its copy, so `dossier problems` never
                // says every source was filed when this one gave nothing.
                let lines = ledger.count + unledgered
                // The importer's one problem with the whole file, when it said one (a CSV of
                // no care records), is the reason.
                let reason = ledger.count == 1 && unledgered == 0 && ledger[0].line == nil ? ledger[0].reason
                    : "no dated entries in it (\(lines) \(lines == 1 ? "line" : "lines") without a date)"
                ledger = [SourceProblem(line: nil, reason: reason)]
                unledgered = 0
                return WorkedSource(outcome: SourceOutcome(source: source.path, status: .skipped, stage: .read,
                                                           error: "\(source.path): \(reason)"),
                                    source: source)
            }
            return WorkedSource(outcome: SourceOutcome(source: source.path, status: .unassigned, stage: .route,
                                                       error: "\(source.path): \(unassignedReason ?? SourceWorker.noSubjectReason)",
                                                       problems: problems), source: source)
        }
        return WorkedSource(outcome: SourceOutcome(source: source.path, status: .imported, subjects: pending.subjects,
                                                   problems: problems),
                            source: source, pendingRecords: pending, customItems: customItems)
    }

    func discard() {
        records?.discard()
    }

    private func noteUnassigned(_ item: Item, reason: String) {
        if case .photo = item {
            add(WorkedSource(outcome: SourceOutcome(source: source.path, status: .unassigned, stage: .route,
                                                    error: "\(source.path): \(reason)"), source: source))
            return
        }
        unassignedCount += 1
        unassignedReason = unassignedReason ?? reason
        switch item {
        case .record(let draft):
            if unassignedLines.count < 10 { unassignedLines.append(draft.source.line) }
            addToLedger(SourceProblem(line: draft.source.line, text: draft.text, reason: reason))
        case .custom(let custom):
            addToLedger(SourceProblem(line: nil, reason: "\(custom.itemName): \(reason)"))
        case .photo:
            break
        }
    }

    /// Takes in what one photo of the source came to.
    private func add(_ worked: WorkedSource) {
        if photo == nil { photo = worked } else { photo!.add(worked) }
    }
}

// MARK: - IndexBatch

/// The index rows of photos settled but not yet committed: a commit is four syncs of the index
/// (its journal and its pages, twice), and photos come by the thousand, so theirs are committed
/// `size` sources at a time, and whatever is left when the run ends. Only photos and movies
/// filed by copy wait here: a text source's rows (its year files, its kept copy) and a source
/// about to be removed (its departure) are committed at once, after those waiting; so is the
/// batch before a still looks in the index for its Live Photo's movie filed before it
/// (`mayHoldMovie`).
///
/// A run stopped before its last commit leaves filed files the index does not name: the next
/// import finds each at its name with the same bytes and records it then (`Filer`'s adopted).
/// Settling goes one source at a time, and asks here before the index (`filedFile`), so a
/// photo settled a moment ago is known as if it were committed.
final class IndexBatch: Sendable {
    /// Sources a commit. Measured (docs/performance.md, "Files filed as they are"): a commit a
    /// source was a quarter of the time of filing 200 files as they are.
    static let size = 64

    private let waiting = Mutex<[PhotoRows]>([])

    var isEmpty: Bool { waiting.withLock { $0.isEmpty } }

    /// Adds a photo's rows; true when the batch is full and should be committed.
    func add(_ rows: PhotoRows) -> Bool {
        waiting.withLock {
            $0.append(rows)
            return $0.count >= IndexBatch.size
        }
    }

    /// A file of `subject` with these bytes, among the rows waiting.
    func filedFile(for subject: Subject, digest: ContentDigest) -> FiledFile? {
        waiting.withLock { entries in
            entries.lazy.flatMap(\.filed).first { $0.subject == subject.path && $0.sha256 == digest.hex }
        }
    }

    /// Whether a movie of `still`'s may be waiting: one with its content identifier, or one from
    /// its folder under its name (the reunion's two ways of finding it, `LivePhotoReunion`).
    func mayHoldMovie(of still: Photo) -> Bool {
        let stem = (still.source.path as NSString).deletingPathExtension
        let moviePaths = Set(LivePhotoReunion.movieExtensions.map { "\(stem).\($0)" })
        return waiting.withLock { entries in
            entries.contains { entry in
                entry.filed.contains { $0.contentIdentifier != nil && $0.contentIdentifier == still.contentIdentifier }
                    || entry.source.map { moviePaths.contains($0.path) } == true
            }
        }
    }

    /// Commits the rows waiting, in one transaction; they stay waiting if it fails. Held while it
    /// commits: a still's commit (from a working thread) and settling's are one at a time.
    func commit(into index: any LibraryCatalog) throws(LibraryError) {
        try waiting.withLock { (entries) throws(LibraryError) in
            guard !entries.isEmpty else { return }
            try index.record(photos: entries)
            entries.removeAll()
        }
    }
}
