import Foundation
import Synchronization

/// Where everything that blocks runs, and the one file that touches threads.
///
/// Working on a source blocks: it reads and fsyncs files, decodes photos in C codecs, commits to
/// SQLite, waits for a turn's memory and for its record batches to be encoded. Swift
/// concurrency's cooperative pool has one thread a core, and a thread blocked there is one the
/// rest of the process (the daemon's service, its signal handling) cannot have; after days a
/// daemon would starve. So the pipeline's tasks hand their blocking work to `BlockingExecutor`
/// (`BlockingWork.run`), a task executor of its own whose threads may block; the tasks
/// themselves only hand work on.
///
/// The few hand-offs that happen inside that blocking work (a reader that goes on while its
/// record batches are encoded on other cores, fsyncs that overlap the writing, a memory budget
/// shared by the photos being turned) are the types below. Nothing else in `Sources/` uses
/// Dispatch, semaphores or conditions.
public final class BlockingExecutor: TaskExecutor {
    public static let shared = BlockingExecutor()

    private let queue = DispatchQueue(label: "dossier.blocking", attributes: .concurrent)

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

public enum BlockingWork {
    /// Runs `body` on `BlockingExecutor`, within the calling task: `Task.isCancelled` inside it
    /// says whether the import was cancelled.
    public nonisolated static func run<Result: Sendable, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        try await withTaskExecutorPreference(BlockingExecutor.shared) { () async throws(Failure) -> Result in
            try body()
        }
    }

    /// Runs `body` once for each index in `0..<count`, as many at once as there are cores, and
    /// returns when all are done.
    public static func concurrentlyForEach(_ count: Int, _ body: @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: count, execute: body)
    }

    /// Starts `body` on a core of its own (the compute pool: as many threads as cores, for work
    /// that only computes) and returns what stands for its result.
    static func compute<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) -> Computation<Value> {
        let computation = Computation<Value>()
        DispatchQueue.global().async(group: computation.done) {
            let result = Result(catching: body)
            computation.result.withLock { $0 = result }
        }
        return computation
    }

    /// The result of work started by `compute`.
    final class Computation<Value: Sendable>: Sendable {
        fileprivate let done = DispatchGroup()
        fileprivate let result = Mutex<Result<Value, any Error>?>(nil)

        /// Waits for the work, then takes its result (once).
        func take() throws -> Value {
            done.wait()
            return try result.withLock { $0.take()! }.get()
        }
    }

    /// Jobs run one after another, in the order they were added, while the caller goes on. A
    /// lane has a thread of its own when it has work, not one of `BlockingExecutor`'s: its jobs
    /// wait for the jobs the caller starts (a batch's encoding), and the caller for them (a
    /// full lane), so sharing the caller's threads could leave none to run them.
    final class SerialLane: Sendable {
        private let queue: DispatchQueue

        init(_ label: String) {
            queue = DispatchQueue(label: label)
        }

        func add(_ job: @escaping @Sendable () -> Void) {
            queue.async(execute: job)
        }

        /// Waits until every job added has run.
        func drain() {
            queue.sync {}
        }
    }

    /// A count of places: `take` waits while none is free. Bounds how far a producer gets ahead
    /// of the jobs it starts.
    final class Places: Sendable {
        private let free: DispatchSemaphore

        init(_ count: Int) {
            free = DispatchSemaphore(value: count)
        }

        func take() { free.wait() }
        func give() { free.signal() }
    }

    /// An amount (of memory) shared by jobs that run at once: each reserves its share first,
    /// waiting while the others hold too much of it.
    public final class SharedBudget: @unchecked Sendable {
        public let capacity: Int
        // Guarded by `condition`.
        private let condition = NSCondition()
        private var reserved = 0

        public init(capacity: Int) {
            self.capacity = capacity
        }

        /// Runs `body` once `amount` (at most the whole budget) is free. One larger than the whole
        /// budget runs on its own.
        public func withReservation<Result>(of amount: Int, _ body: () throws -> Result) rethrows -> Result {
            let share = min(max(amount, 0), capacity)
            condition.lock()
            while reserved > 0 && reserved + share > capacity { condition.wait() }
            reserved += share
            condition.unlock()
            defer {
                condition.lock()
                reserved -= share
                condition.broadcast()
                condition.unlock()
            }
            return try body()
        }
    }
}

// MARK: - SliceResults

/// The results of work done on several cores at once, one per slot, collected in slot order.
final class SliceResults<Value: Sendable>: Sendable {
    private let slots: Mutex<[Result<Value, any Error>?]>

    init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    func set(_ index: Int, _ result: Result<Value, any Error>) {
        slots.withLock { $0[index] = result }
    }

    /// One slot's result, moved out (the slot is left empty), so the taker holds the only copy;
    /// call after the slot's work is done.
    func take(_ index: Int) -> Result<Value, any Error> {
        slots.withLock { $0[index].take()! }
    }

    /// Every slot's result; call after all the work is done.
    var all: [Result<Value, any Error>] {
        slots.withLock { $0.map { $0! } }
    }
}
