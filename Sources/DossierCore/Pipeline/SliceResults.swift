import Synchronization

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
