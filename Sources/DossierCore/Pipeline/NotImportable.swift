/// Thrown by an importer that recognised the file's format but finds nothing in it that it
/// imports (an iPhone `.AAE` edit sidecar is a property list, a README is text): the source is
/// reported skipped with the reason, not failed.
public struct NotImportable: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    /// A stable name for why, for programs (`--json`'s `error_code`, the daemon), when it has one.
    public let code: String?

    /// The code of a source that needs another file that is not here yet (a sidecar whose photo
    /// has not come): the daemon leaves it in the inbox and tries it again once that file is filed.
    public static let waitsForAnotherFile = "waits-for-another-file"

    public init(_ reason: String, code: String? = nil) {
        self.reason = reason
        self.code = code
    }

    public var description: String { reason }
}
