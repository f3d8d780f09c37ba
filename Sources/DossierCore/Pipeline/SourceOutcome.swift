/// The result for one source, as listeners and `--json` report it.
public struct SourceOutcome: Sendable, Equatable {
    public let source: String
    public let status: ImportStatus
    public let subject: Subject?
    /// The filed file's absolute path (for a duplicate: the file it duplicates).
    public let destination: String?
    /// For failed, skipped and unassigned sources: why, in one line that names the file.
    public let error: String?
    /// Problems that did not stop the import (a broken EXIF block, a decoder warning).
    public let warnings: [String]
    /// `--move` removed the source after its content was durable in the library.
    public let sourceRemoved: Bool

    public init(source: String, status: ImportStatus, subject: Subject? = nil, destination: String? = nil,
                error: String? = nil, warnings: [String] = [], sourceRemoved: Bool = false) {
        self.source = source
        self.status = status
        self.subject = subject
        self.destination = destination
        self.error = error
        self.warnings = warnings
        self.sourceRemoved = sourceRemoved
    }

    func removingSource() -> SourceOutcome {
        SourceOutcome(source: source, status: status, subject: subject, destination: destination,
                      error: error, warnings: warnings, sourceRemoved: true)
    }
}
