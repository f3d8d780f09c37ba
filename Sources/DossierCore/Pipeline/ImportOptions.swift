import Foundation

/// How an import runs; the command line's options, as the library sees them.
public struct ImportOptions: Sendable {
    /// `--subject`: file everything under this subject.
    public var requestedSubject: Subject?
    /// Work out every destination, write nothing (not even the index).
    public var dryRun: Bool
    /// Remove each source once its content is durable in the library.
    public var move: Bool
    /// How many sources are worked on at once.
    public var jobs: Int
    /// Wait for another import into the same library to finish instead of failing.
    public var waitForLock: Bool
    /// `--kind`: the kind of records whose source does not say.
    public var requestedKind: String?
    /// Sources are read from the library's kept copies (`dossier problems retry`).
    public var retryingProblems = false

    public init(requestedSubject: Subject? = nil, dryRun: Bool = false, move: Bool = false,
                jobs: Int = ImportOptions.defaultJobs, waitForLock: Bool = true, requestedKind: String? = nil) {
        self.requestedSubject = requestedSubject
        self.requestedKind = requestedKind
        self.dryRun = dryRun
        self.move = move
        self.jobs = max(1, jobs)
        self.waitForLock = waitForLock
    }

    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
