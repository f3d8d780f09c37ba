/// The counts of one import run.
public struct ImportSummary: Sendable, Equatable {
    public private(set) var counts: [ImportStatus: Int]
    public var seconds: Double
    public let dryRun: Bool
    /// Records taken out of year files because a source imported again from the same path no
    /// longer gives them (an edited log's corrected lines).
    public private(set) var recordsRemoved = 0
    /// Stopped by a signal before every source was worked on.
    public var interrupted = false
    /// Sources that finished but left something for a person: lines or rows with problems, no
    /// subject to file under, or text that gave no records at all.
    public private(set) var leftForYou = 0
    /// Hidden files and folders passed over (`.DS_Store`, `.photoprism/`), counted among the
    /// skipped.
    public private(set) var hidden = 0
    /// Symbolic links skipped unread (`SourceLink`), counted among the skipped: each is said,
    /// and the import exits 3, since a person may want the file it leads to copied in.
    public private(set) var linksNotFollowed = 0
    /// The library's folder, as the summary names it (nil where no library is in play: a test's
    /// summary).
    public var library: String?

    public init(dryRun: Bool, library: String? = nil) {
        self.dryRun = dryRun
        self.library = library
        counts = Dictionary(uniqueKeysWithValues: ImportStatus.allCases.map { ($0, 0) })
        seconds = 0
    }

    public subscript(status: ImportStatus) -> Int { counts[status, default: 0] }

    public var total: Int { counts.values.reduce(0, +) }

    public var hasFailures: Bool { self[.failed] > 0 }

    mutating func add(_ outcome: SourceOutcome) {
        counts[outcome.status, default: 0] += 1
        recordsRemoved += outcome.recordsRemoved
        if outcome.leavesSomethingForYou { leftForYou += 1 }
        if outcome.errorCode == SkippedNames.hiddenCode { hidden += 1 }
        if outcome.errorCode == SourceLink.refusedCode { linksNotFollowed += 1 }
    }
}
