/// Why one source failed: the file, the stage that refused it, and the reason in that stage's words.
public struct ImportFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let stage: ImportStage
    public var reason: String
    /// A stable name for the kind of failure (`LibraryError.code`), for programs that must not
    /// parse the reason; nil for a failure only words describe.
    public var code: String?
    /// Set when the library itself failed (`LibraryError.isAboutTheLibrary`), not the source.
    public var libraryError: LibraryError?
    /// What the layer below said, with its code (errno, SQLite's) when it gave one.
    public var cause: FailureCause?

    public init(path: String, stage: ImportStage, reason: String) {
        self.path = path
        self.stage = stage
        self.reason = reason
    }

    public init(path: String, stage: ImportStage, error: any Error) {
        self.init(path: path, stage: stage, reason: String(describing: error))
        cause = .of(error)
        if let library = error as? LibraryError {
            code = library.code
            if library.isAboutTheLibrary { libraryError = library }
        }
    }

    /// One line that names the file: the reason alone when it already starts with the path
    /// (decoders that report `path:line: ...`).
    public var description: String { reason.hasPrefix(path) ? reason : "\(path): \(reason)" }
}
