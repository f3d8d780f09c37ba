import DossierCore
import Synchronization

/// The files an `InboxWatcher` found settled, handed to the consumer when it asks for the next
/// batch: everything settled by then, up to `largestBatch`, in path order.
///
/// The consumer pulls; the watcher does not push. While a batch is being filed, files that settle
/// wait here and go together as the next batch, rather than queue up as many small batches,
/// each of which would take the library and end with a core idle. Nothing is buffered but the
/// settled files themselves, which the watcher would hold anyway. It has one consumer (the
/// service): a second `next()` waiting at the same time would leave the first waiting forever.
public final class SettledSources: AsyncSequence, Sendable {
    public typealias Element = [SourceFile]

    /// The most files in one batch. A batch holds the library for its whole length, so a bounded
    /// one lets `dossier import` and the other commands in between; and files that arrive during a
    /// burst are not held behind all of it.
    public static let largestBatch = 256

    private struct State {
        var ready: [SourceFile] = []
        var waiting: CheckedContinuation<[SourceFile]?, Never>?
        var finished = false
    }

    private let state = Mutex(State())

    init() {}

    /// The watcher's side: files that have settled.
    func add(_ files: [SourceFile]) {
        let handed: (CheckedContinuation<[SourceFile]?, Never>, [SourceFile])? = state.withLock { state in
            // Kept in path order as files come, so taking a batch is taking the front.
            state.ready += files
            state.ready.sort { $0.path < $1.path }
            guard let waiting = state.waiting, !state.ready.isEmpty else { return nil }
            state.waiting = nil
            return (waiting, SettledSources.takeBatch(&state.ready))
        }
        if let (waiting, batch) = handed { waiting.resume(returning: batch) }
    }

    /// The watcher stopped: the sequence ends once what is ready is taken.
    func finish() {
        let waiting = state.withLock { state in
            state.finished = true
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: nil)
    }

    private static func takeBatch(_ ready: inout [SourceFile]) -> [SourceFile] {
        let batch = Array(ready.prefix(largestBatch))
        ready.removeFirst(batch.count)
        return batch
    }

    func next() async -> [SourceFile]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[SourceFile]?, Never>) in
                let immediate: [SourceFile]?? = state.withLock { state in
                    if !state.ready.isEmpty { return .some(SettledSources.takeBatch(&state.ready)) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiting = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiting = state.withLock { state in
                defer { state.waiting = nil }
                return state.waiting
            }
            waiting?.resume(returning: nil)
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let sources: SettledSources

        public mutating func next() async -> [SourceFile]? {
            await sources.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sources: self)
    }
}
