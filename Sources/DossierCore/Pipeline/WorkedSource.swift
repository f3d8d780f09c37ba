/// What a worker made of one source, for the driving task to settle.
struct WorkedSource: Sendable {
    var outcome: SourceOutcome
    /// The source as discovered; nil for a path that could not be read at all.
    let source: SourceFile?
    /// Index rows to record once settled.
    /// The files it filed (a still, its movie, what a transform fanned out to), each indexed.
    var filed: [FiledFile] = []
    /// The renditions filed (or made again) beside them, each indexed by its bytes.
    var renditions: [FiledRendition] = []
    var imported: ImportedSource?
    /// Records waiting in staging to be merged into their year files.
    var pendingRecords: PendingRecords?
    /// Items that file themselves, one source at a time.
    var customItems: [any CustomItem]
    /// The source's bytes copied into staging, to be kept under `sources/` when settled.
    var keptCopy: SourceKeeper.StagedCopy?
    /// Every part of the source that was not filed, for the problems ledger.
    var ledger: [SourceProblem] = []
    /// The subject the source's path (or --subject) gave its entries that name none: what a
    /// retry of its problems files them under again.
    var pathSubject: Subject?
    /// Every year file its records belong to (changed by it or not), relative to the root.
    var recordYearFiles: [String] = []
    /// For a text source whose bytes another source gave (read no further): its own rows for
    /// the year files that source's version gave records to, so it stands for those records
    /// too, and an edit of the other hands them to it.
    var standInRows: [SourceYearFile] = []
    /// The files in the library whose bytes make the source safe to remove (`--move`): each
    /// filed photo, or the kept copy of a text source, with the digest it must have. Every one
    /// is checked before the source goes; none, and it stays.
    var safeCopies: [SafeCopy] = []
    /// The source's bytes kept under `originals/` (`OriginalsPolicy`), for the index.
    var originals: [KeptOriginal] = []
    /// The library itself failed while this source was worked on: the import stops.
    var libraryFailure: LibraryError?

    init(outcome: SourceOutcome, source: SourceFile? = nil, filed: [FiledFile] = [], imported: ImportedSource? = nil,
         pendingRecords: PendingRecords? = nil, customItems: [any CustomItem] = []) {
        self.outcome = outcome
        self.source = source
        self.filed = filed
        self.imported = imported
        self.pendingRecords = pendingRecords
        self.customItems = customItems
    }

    /// Takes in what another file from the same source came to (a second photo in it, or one a
    /// transform fanned out to): its filed files and safe copies join these; the outcome is
    /// imported if either filed anything new. One that was not filed (no subject, a failure)
    /// makes the whole source so, and takes its safe copies away: a source is removed only when
    /// everything in it is safe in the library.
    mutating func add(_ other: WorkedSource) {
        filed += other.filed
        renditions += other.renditions
        outcome.refiled = outcome.refiled || other.outcome.refiled
        originals += other.originals.filter { original in !originals.contains { $0.sha256 == original.sha256 } }
        outcome.warnings += other.outcome.warnings
        switch other.outcome.status {
        case .imported, .duplicate:
            safeCopies += other.safeCopies
            if let destination = other.outcome.destination { outcome.alsoFiled.append(destination) }
            if other.outcome.status == .imported && outcome.status == .duplicate { outcome.status = .imported }
            if imported == nil { imported = other.imported }
        case .failed, .skipped, .unassigned:
            if let destination = outcome.destination, [.imported, .duplicate].contains(outcome.status) {
                outcome.alsoFiled.insert(destination, at: 0)
                outcome.destination = nil
            }
            (outcome.status, outcome.stage, outcome.error) = (other.outcome.status, other.outcome.stage, other.outcome.error)
            safeCopies = []
        }
    }
}
