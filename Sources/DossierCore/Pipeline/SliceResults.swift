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

    /// Every slot's result; call after all the work is done.
    var all: [Result<Value, any Error>] {
        slots.withLock { $0.map { $0! } }
    }
}
