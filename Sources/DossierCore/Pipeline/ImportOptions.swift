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
    /// Which library the import may open: `dossier import` makes one where there is none, the
    /// retries only use one that exists, the daemon only the one it started with.
    public var access: LibrarySession.Access = .creatingIfAbsent
    /// How a source relates to what was imported from its path before.
    public var history: SourceHistory = .followsPath
    /// `--create`: a `pets/<id>` or `children/<id>` folder naming no subject makes one. Without
    /// it such a folder's files are unassigned (a typo must not become a subject), with the
    /// nearest ids.
    public var createsSubjects = false
    /// Which photos' source bytes are kept under `originals/`; nil: the library's setting, else `lossy`.
    public var originals: OriginalsPolicy?
    /// Files seen leaving their paths since the last run (the daemon's inbox, with `--keep`: a
    /// filed log deleted by hand): recorded as departed before anything is filed, so a new file
    /// at such a path is not taken for the old one edited.
    public var departures: [String] = []
    /// `dossier import --overwrite-profiles`: a source's profile fields replace the ones a person
    /// typed (`subjects add`, `subjects edit`), which otherwise stay and are reported kept.
    public var overwritesTypedFields = false

    /// How a source relates to what was imported from its path before.
    public enum SourceHistory: Sendable, Equatable {
        /// A source at a path whose earlier version is still there (not removed by Dossier) is
        /// that file edited: its records replace the ones the earlier versions gave.
        case followsPath
        /// Every source is a new one that has left its path (a quarantined file retried from the
        /// quarantine): its records are added, never replacing any.
        case departed
    }

    public init(requestedSubject: Subject? = nil, dryRun: Bool = false, move: Bool = false,
                jobs: Int = ImportOptions.defaultJobs, waitForLock: Bool = true, requestedKind: String? = nil,
                createsSubjects: Bool = false) {
        self.createsSubjects = createsSubjects
        self.requestedSubject = requestedSubject
        self.requestedKind = requestedKind
        self.dryRun = dryRun
        self.move = move
        self.jobs = max(1, jobs)
        self.waitForLock = waitForLock
    }

    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
