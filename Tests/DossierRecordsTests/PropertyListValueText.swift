import Foundation

/// Property-list values written out with their types, so that a test compares what a loader gave
/// exactly (1 and 1.0 and true differ) and a mismatch is readable.
enum PropertyListValueText {
    static func of(_ value: Any) -> String {
        switch value {
        case let value as String: return "\"\(value)\""
        case let value as Bool: return "bool:\(value)"
        case let value as Int: return "int:\(value)"
        case let value as UInt64: return "uint:\(value)"
        case let value as Double: return "real:\(value)"
        case let value as Date: return "date:\(value.timeIntervalSince1970)"
        case let value as Data: return "data:" + value.map { String(format: "%02x", $0) }.joined()
        case let value as [Any]: return "[" + value.map(of).joined(separator: ", ") + "]"
        case let value as [String: Any]:
            return "{" + value.keys.sorted().map { "\($0): \(of(value[$0]!))" }.joined(separator: ", ") + "}"
        default: return "unexpected \(type(of: value)): \(value)"
        }
    }
}
