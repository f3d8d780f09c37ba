/// Why one source failed: the file, the step that refused it, and the reason in that step's words.
public struct ImportFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    /// The importer or transform that failed, or `read`, `route`, `file`.
    public let step: String
    public let reason: String
    /// Set when the library itself failed (`LibraryError.isAboutTheLibrary`), not the source.
    public var libraryError: LibraryError?

    public init(path: String, step: String, reason: String) {
        self.path = path
        self.step = step
        self.reason = reason
    }

    public init(path: String, step: String, error: any Error) {
        self.init(path: path, step: step, reason: String(describing: error))
        if let library = error as? LibraryError, library.isAboutTheLibrary { libraryError = library }
    }

    /// One line that names the file: the reason alone when it already starts with the path
    /// (decoders that report `path:line: ...`).
    public var description: String { reason.hasPrefix(path) ? reason : "\(path): \(reason)" }
}
