import Foundation
import Synchronization

/// Where sources are worked on: threads of Dispatch's, not Swift concurrency's cooperative pool.
///
/// Working on a source blocks: it reads and fsyncs files, decodes photos, waits for a turn's
/// memory (`TurnMemoryBudget`) and for its record batches to be encoded (`RecordBatchWriter`).
/// The cooperative pool has one thread a core, and a thread blocked there is one the rest of the
/// process (the daemon's service, its signal handling) cannot have; after days a daemon would
/// starve. A queue of its own is overcommitting: a blocked job does not hold the others back.
enum SourceWorkQueue {
    static let queue = DispatchQueue(label: "dossier.source-work", attributes: .concurrent)

    /// Runs `body` there; a cancellation of the calling task reaches it through `cancellation`,
    /// since a Dispatch thread has no task to ask.
    static func run<Result: Sendable>(cancellation: WorkCancellation,
                                      _ body: @escaping @Sendable () -> Result) async -> Result {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: body()) }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

/// Whether the import that a source's work belongs to was cancelled.
final class WorkCancellation: Sendable {
    private let cancelled = Atomic(false)

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}
