import Synchronization

/// Values a plugin loads once per run and shares across sources and workers, e.g. the library's
/// keyword table. Keyed by type; the first caller loads, later ones get the same value.
public final class RunResources: Sendable {
    private let values = Mutex<[ObjectIdentifier: any Sendable]>([:])

    public init() {}

    public func value<Value: Sendable>(_ type: Value.Type, load: () throws -> Value) rethrows -> Value {
        try values.withLock { values in
            if let value = values[ObjectIdentifier(type)] as? Value { return value }
            let value = try load()
            values[ObjectIdentifier(type)] = value
            return value
        }
    }
}
