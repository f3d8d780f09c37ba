import Synchronization

/// Keeps each source's outcome of one run, by source path, for whoever acts on them once the run
/// is done (the daemon taking sources out of its inbox, a quarantine retry updating its notes).
public final class OutcomeRecorder: OutcomeListener {
    private let outcomes = Mutex<[String: SourceOutcome]>([:])
    private let onFinished: @Sendable (SourceOutcome) -> Void

    /// - Parameter onFinished: called with each outcome as it comes (the daemon logs a filed
    ///   source then, not when its whole batch is done).
    public init(onFinished: @escaping @Sendable (SourceOutcome) -> Void = { _ in }) {
        self.onFinished = onFinished
    }

    public func receive(_ event: ImportEvent) {
        if case .finished(let outcome, _, _) = event {
            outcomes.withLock { $0[outcome.source] = outcome }
            onFinished(outcome)
        }
    }

    public func outcome(of path: String) -> SourceOutcome? {
        outcomes.withLock { $0[path] }
    }
}
