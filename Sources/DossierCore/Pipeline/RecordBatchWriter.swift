import Foundation
import Synchronization

/// Transforms, encodes and spills one source's records in batches, behind the importer: while
/// the importer reads on, earlier batches are transformed and encoded, each on a core of its
/// own, and added to the spill one after another. At most `depth` batches are under way, so
/// memory stays bounded however far the reader gets ahead.
///
/// Batches reach the spill in the order they were read (its in-order runs rely on it): each
/// batch's spill job is added to a serial lane when the batch is submitted, and waits there
/// for the batch's encoding. The spill is only touched by those jobs, and by `finish` and
/// `discard` once the lane is drained. With `--jobs 1` each batch is transformed, encoded and
/// spilled on the reader's thread, before it reads on.
final class RecordBatchWriter: Sendable {
    /// Batches under way: enough for both cores to encode while one batch is being spilled.
    static let depth = 3

    private let worker: SourceWorker
    private let source: SourceFile
    /// The library's copy of the source, named in every record's `source`.
    private let keptSource: String?
    /// The encoded lines' buffers, handed back by the spill: one per batch under way.
    private let buffers = ByteBufferPool(limit: RecordBatchWriter.depth)
    private let spilling = BlockingWork.SerialLane("dossier.record-batches")
    private let room = BlockingWork.Places(RecordBatchWriter.depth)
    /// `--jobs 1`: nothing runs beside the reader.
    private let sequential: Bool
    private let spill: Mutex<RecordSpill>
    /// The first error a batch met; later batches are then dropped unread.
    private let failure = Mutex<(any Error)?>(nil)
    /// What the transforms reported, batch by batch.
    private let problems = Mutex<[SourceProblem]>([])
    /// The drafts of the batches encoded, freed by the reader at its next batch (see `submit`).
    private let encodedDrafts = Mutex<[[RecordDraft]]>([])

    init(worker: SourceWorker, source: SourceFile, keptSource: String?) {
        self.worker = worker
        self.source = source
        self.keptSource = keptSource
        sequential = worker.options.jobs == 1
        spill = Mutex(RecordSpill(layout: worker.layout, dryRun: worker.options.dryRun))
    }

    /// Queues a batch of routed records; waits while `depth` batches are under way. Throws the
    /// error an earlier batch met.
    func submit(_ batch: [RecordDraft]) throws {
        // The drafts of the batches encoded since the last one are freed here, on the reader's
        // thread, which made their strings and arrays: freed on an encoder's, each free took the
        // lock of the reader's malloc arena while the reader allocated from it.
        do {
            let done = encodedDrafts.withLock { drafts in
                var taken: [[RecordDraft]] = []
                swap(&taken, &drafts)
                return taken
            }
            _ = done.count
        }
        if sequential {
            try spillEncoded(RecordBatchWriter.encode(batch, worker: worker, source: source, keptSource: keptSource, buffers: buffers,
                                                      reporting: { found in problems.withLock { $0 += found } },
                                                      leaving: { _ in }))
            return
        }
        room.take()
        if let error = failure.withLock({ $0 }) {
            room.give()
            throw error
        }
        let records = Handoff(batch)
        let worker = self.worker, source = self.source, buffers = self.buffers, keptSource = self.keptSource
        let encoding = BlockingWork.compute { [self] in
            try RecordBatchWriter.encode(records.take(), worker: worker, source: source, keptSource: keptSource, buffers: buffers,
                                         reporting: { found in problems.withLock { $0 += found } },
                                         leaving: { drafts in encodedDrafts.withLock { $0.append(drafts) } })
        }
        spilling.add { [self] in
            defer { room.give() }
            do {
                let records = try encoding.take()
                guard failure.withLock({ $0 == nil }) else { return }
                try spillEncoded(records)
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
    }

    /// Adds an encoded batch to the spill, which copies the lines it keeps: the buffer then
    /// serves a later batch.
    private func spillEncoded(_ records: EncodedRecords) throws {
        worker.observe("file", source)
        try spill.withLock { try $0.add(records) }
        buffers.give(records.releaseBytes())
    }

    /// Waits for the batches under way, then writes out what the spill still holds.
    func finish() throws -> PendingRecords {
        spilling.drain()
        encodedDrafts.withLock { $0 = [] }
        if let error = failure.withLock({ $0 }) { throw error }
        return try spill.withLock { try $0.finish() }
    }

    /// What the transforms reported, once `finish` has returned: in line order, and those that
    /// differ only by line (a log's every weight with no unit) as one, with their count.
    func transformProblems() -> [SourceProblem] {
        let all = problems.withLock { $0 }.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
        var byReason: [String: (first: SourceProblem, count: Int)] = [:]
        var order: [String] = []
        for problem in all {
            if byReason[problem.reason] == nil { order.append(problem.reason) }
            byReason[problem.reason, default: (problem, 0)].count += 1
        }
        return order.map { reason in
            let (first, count) = byReason[reason]!
            guard count > 1 else { return first }
            return SourceProblem(line: nil, reason: "\(count) entries (the first on line \(first.line.map(String.init) ?? "?")): \(reason)")
        }
    }

    /// Waits for the batches under way and removes what they spilled (a failed source).
    func discard() {
        spilling.drain()
        encodedDrafts.withLock { $0 = [] }
        spill.withLock { $0.discard() }
    }

    /// Transforming a record, hashing its id and encoding its line touch nothing but that
    /// record, so batches are encoded side by side.
    private static func encode(_ records: consuming [RecordDraft], worker: SourceWorker, source: SourceFile, keptSource: String?,
                               buffers: ByteBufferPool, reporting report: ([SourceProblem]) -> Void,
                               leaving leave: ([RecordDraft]) -> Void) throws -> EncodedRecords {
        worker.observe("transform", source)
        // Consumed, so the batch holds the only reference and the transforms change it in place.
        var transformed = try worker.transform(ItemBatch(records: consume records))
        if !transformed.problems.isEmpty { report(transformed.problems) }
        var drafts = transformed.records
        transformed.records = []
        var encoded = EncodedRecords(capacity: drafts.count,
                                     bytes: buffers.take(capacity: drafts.count * EncodedRecords.bytesPerRecord))
        // Each draft is swapped out of the batch into one local, which moves it: passing a draft
        // read from the array would copy it, retaining (and then releasing) every string and
        // array in it. The batch keeps them all, one place along, until it is freed.
        guard var draft = drafts.first else { return encoded }
        for index in drafts.indices {
            swap(&draft, &drafts[index])
            if let subject = draft.subject { encoded.append(draft, subject: subject, keptSource: keptSource) }
        }
        leave(drafts)
        return encoded
    }
}

// MARK: - Handoff

/// Carries a value into the one job that takes it. A value captured by a closure stays held by
/// the closure too, so the job's first change to a big array would copy it whole; taken out of
/// a handoff, the job holds the only reference and changes it in place.
final class Handoff<Value: Sendable>: Sendable {
    private let slot: Mutex<Value?>

    init(_ value: sending Value) {
        slot = Mutex(value)
    }

    /// The value; a second take is a programming error.
    func take() -> Value {
        slot.withLock { value in
            guard let taken = value.take() else { preconditionFailure("a handoff is taken once") }
            return taken
        }
    }
}

// MARK: - ByteBufferPool

/// Byte buffers given back once used, for the next batch: a batch's encoded lines take about a
/// megabyte, and a fresh megabyte for every batch means the kernel handing out (and zeroing)
/// new pages all through a big import. At most `limit` buffers are kept, so the pool never holds
/// more than the batches under way would. A small gain (docs/performance.md, "ByteBufferPool").
final class ByteBufferPool: Sendable {
    private let buffers = Mutex<[[UInt8]]>([])
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// A buffer with room for `capacity` bytes, used before if one is free: it still holds what
    /// it held, to be written over (`EncodedRecords` writes lines straight into a buffer's bytes,
    /// which must be there; emptying it would have them made again, a megabyte of zeroes a batch).
    func take(capacity: Int) -> [UInt8] {
        var buffer = buffers.withLock { $0.popLast() } ?? []
        buffer.reserveCapacity(capacity)
        return buffer
    }

    /// Keeps `buffer`, contents and all, for a later `take`; past `limit` buffers, it is freed.
    func give(_ buffer: consuming [UInt8]) {
        let buffer = buffer
        guard buffer.capacity > 0 else { return }
        buffers.withLock { if $0.count < limit { $0.append(buffer) } }
    }
}
