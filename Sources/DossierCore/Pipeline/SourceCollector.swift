import Foundation

/// The sink one source's items flow into: each is routed as it arrives; records are transformed
/// in batches and spilled to sorted runs; a photo is filed at once; custom items wait for the
/// driving task. Memory stays bounded by the batch and the spill's buffer, whatever the size
/// of the source.
final class SourceCollector: ItemSink {
    static let batchSize = 4096
    /// A long list of problems helps no one: past this many, only a count is kept.
    static let problemLimit = 100

    private let worker: SourceWorker
    private let source: SourceFile
    private let spill: RecordSpill
    private var batch: [Item] = []
    private var photo: WorkedSource?
    private var customItems: [any CustomItem] = []
    private var problems: [String] = []
    private var hiddenProblems = 0
    private var unassignedReason: String?
    private var unassignedLines: [Int] = []
    private var unassignedCount = 0
    /// Where the source's path routes its items: the same for every item without a subject of
    /// its own, so worked out once.
    private var pathDecision: RoutingDecision?

    init(worker: SourceWorker, source: SourceFile) {
        self.worker = worker
        self.source = source
        spill = RecordSpill(stagingFolder: worker.layout.stagingFolder.path, dryRun: worker.options.dryRun)
    }

    func accept(_ item: Item) throws {
        var item = item
        if item.needsSubject && item.subject == nil {
            let decision = pathDecision ?? worker.route(item, from: source)
            pathDecision = decision
            switch decision {
            case .subject(let subject):
                item.subject = subject
            case .unassigned(let reason):
                return noteUnassigned(item, reason: reason)
            case .undecided:
                return noteUnassigned(item, reason: SourceWorker.noSubjectReason)
            }
        }
        switch item {
        case .photo(let photo):
            self.photo = try worker.file(photo)
        case .record:
            batch.append(item)
            if batch.count >= SourceCollector.batchSize { try flush() }
        case .custom:
            for case .custom(let transformed) in try worker.transform([item]) { customItems.append(transformed) }
        }
    }

    func report(_ problem: String) {
        guard problems.count < SourceCollector.problemLimit else {
            hiddenProblems += 1
            return
        }
        problems.append("\(source.path): \(problem)")
    }

    /// Transforms the waiting records and spills them. The batch is cut in one slice per core:
    /// transforming a record, hashing its id and encoding its line touch nothing but that
    /// record, so a big log uses every core while it is read.
    func flush() throws {
        guard !batch.isEmpty else { return }
        let slices = SourceCollector.slices(of: batch.count)
        let results = SliceResults<[RecordSpill.Encoded]>(count: slices.count)
        let worker = self.worker
        let batch = self.batch
        DispatchQueue.concurrentPerform(iterations: slices.count) { index in
            results.set(index, Result { try SourceCollector.encode(Array(batch[slices[index]]), worker: worker) })
        }
        self.batch = []
        for result in results.all {
            for encoded in try result.get() { try spill.add(encoded) }
        }
    }

    private static func encode(_ items: [Item], worker: SourceWorker) throws -> [RecordSpill.Encoded] {
        try worker.transform(items).compactMap { item in
            guard case .record(let draft) = item, let subject = draft.subject else { return nil }
            return RecordSpill.Encoded(Record(subject: subject, date: draft.date, kind: draft.kind ?? "memo",
                                              measurements: draft.measurements, text: draft.text, fields: draft.fields,
                                              source: draft.source))
        }
    }

    private static func slices(of count: Int) -> [Range<Int>] {
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count / 256))
        let size = (count + parts - 1) / parts
        return stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
    }

    /// What the worker hands the driving task.
    func finish() throws -> WorkedSource {
        if hiddenProblems > 0 { problems.append("\(source.path): and \(hiddenProblems) more problems") }
        if unassignedCount > 0, let reason = unassignedReason {
            let lines = unassignedLines.map(String.init).joined(separator: ", ")
            let more = unassignedCount > unassignedLines.count ? " and \(unassignedCount - unassignedLines.count) more" : ""
            problems.append("\(source.path): \(unassignedCount) entries not filed (lines \(lines)\(more)): \(reason)")
        }
        if var photo {
            photo.outcome.problems = problems
            return photo
        }
        let pending = try spill.finish()
        if pending.total == 0 && customItems.isEmpty {
            guard unassignedCount > 0 else {
                // Nothing read at all: text that is no log (a README, subtitles), not a log full
                // of mistakes; listing every line as a problem would help no one.
                let lines = problems.count + hiddenProblems
                return WorkedSource(outcome: SourceOutcome(
                    source: source.path, status: .skipped,
                    error: "\(source.path): no dated entries in it (\(lines) \(lines == 1 ? "line" : "lines") without a date)"),
                    source: source)
            }
            return WorkedSource(outcome: SourceOutcome(source: source.path, status: .unassigned,
                                                       error: "\(source.path): \(unassignedReason ?? SourceWorker.noSubjectReason)",
                                                       problems: problems), source: source)
        }
        return WorkedSource(outcome: SourceOutcome(source: source.path, status: .imported, subjects: pending.subjects,
                                                   problems: problems),
                            source: source, pendingRecords: pending, customItems: customItems)
    }

    func discard() {
        spill.discard()
    }

    private func noteUnassigned(_ item: Item, reason: String) {
        if case .photo = item {
            photo = WorkedSource(outcome: SourceOutcome(source: source.path, status: .unassigned,
                                                        error: "\(source.path): \(reason)"), source: source)
            return
        }
        unassignedCount += 1
        unassignedReason = unassignedReason ?? reason
        if case .record(let draft) = item, unassignedLines.count < 10 { unassignedLines.append(draft.source.line) }
    }
}
