/// One source on its way through the steps: what it is, what the steps so far found out, and
/// what it will be reported as.
public struct SourceInProgress: Sendable {
    /// What discovery handed on: a file, or a path that could not be read or was passed over.
    public let found: SourceDiscovery.Found
    /// The source's first bytes (`sniff`).
    var head: [UInt8]?
    /// The importer that recognised them (`sniff`).
    var importer: (any Importer)?
    /// A text source's bytes, copied into staging before it is read (`keep`).
    var stagedCopy: SourceKeeper.StagedCopy?
    /// What the working steps made of it; set by the step that decides its outcome.
    var worked: WorkedSource?
    /// What the settling steps hand on to each other: the year files and index rows it gives.
    var settlement = Settlement()
    /// A settling step made it fail: only the steps that run for stopped sources follow.
    public internal(set) var stopped = false
    /// How many sources are settled with this one, and how many there are in all (`report`).
    var completed = 0
    var total = 0

    init(_ found: SourceDiscovery.Found) {
        self.found = found
    }

    /// The file, when discovery found one.
    public var source: SourceFile? {
        if case .file(let source) = found { return source }
        return nil
    }

    /// The path as discovery named it.
    public var path: String {
        switch found {
        case .file(let source): return source.path
        case .unreadable(let path, _), .passedOver(let path, _), .passedOverName(let path, _, _): return path
        }
    }

    /// What it will be reported as; set once a working step decided it.
    public var outcome: SourceOutcome? {
        get { worked?.outcome }
        set { if let newValue { worked?.outcome = newValue } }
    }

    /// Marks the source failed as `failure` says (its stage, reason and codes), naming it in the
    /// error, and stops its settling.
    mutating func fail(_ failure: ImportFailure) {
        stopped = true
        guard var outcome = worked?.outcome else { return }
        outcome.failed(failure)
        worked?.outcome = outcome
    }

    struct Settlement: Sendable {
        /// The year files of the source's earlier versions, whose records this version replaces.
        var lineage: [SourceYearFile] = []
        /// The kept copy under `sources/`, once placed.
        var kept: KeptSource?
        /// The index rows of this version for each year file it gives records to.
        var yearFiles: [SourceYearFile] = []
        /// The year files its commit changed, with their summaries.
        var recordFiles: [RecordFileSummary] = []
        /// Its departure, recorded with what it gave when it is to be removed.
        var departure: SourceDeparture?
        /// The source `remove` takes out, once the index holds what it gave.
        var removing: SourceFile?
    }
}
