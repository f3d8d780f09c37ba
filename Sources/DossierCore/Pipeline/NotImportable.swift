/// Thrown by an importer that recognised the file's format but finds nothing in it that it
/// imports (an iPhone `.AAE` edit sidecar is a property list, a README is text): the source is
/// reported skipped with the reason, not failed.
public struct NotImportable: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
