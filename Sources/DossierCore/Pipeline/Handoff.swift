import Synchronization

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
