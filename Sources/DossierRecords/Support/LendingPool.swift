import Synchronization

/// Values that grow more useful with use but are changed by one worker at a time, lent out and
/// taken back: a transform's memo of what it has read, which each batch would otherwise start
/// again from nothing. A borrower takes an idle value (or a new one when all are lent), so
/// there are never more values than workers at once, and no lock is held while one is used.
///
/// Kept from batch to batch because words repeat across a file even where whole notes do not:
/// a new memo for every batch would read them all again (docs/performance.md, "LendingPool").
final class LendingPool<Value: Sendable>: Sendable {
    private let idle = Mutex<[Value]>([])
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    func borrow<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        var value = idle.withLock { $0.popLast() } ?? make()
        defer { idle.withLock { [value] in $0.append(value) } }
        return try body(&value)
    }
}
