/// One source on its way through the steps: what it is, what the steps so far found out, and
/// what it will be reported as.
public struct SourceInProgress: Sendable {
    /// What discovery handed on: a file, or a path that could not be read or was passed over.
    public let found: SourceDiscovery.Found
    /// The source's first bytes (`sniff`).
    public internal(set) var head: [UInt8]?
    /// The importer that recognised them (`sniff`).
    public internal(set) var importer: (any Importer)?
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
        case .unreadable(let path, _), .passedOver(let path, _), .passedOverName(let path, _, _), .notRegularFile(let path, _):
            return path
        }
    }

    /// What it will be reported as; set once a working step decided it.
    public var outcome: SourceOutcome? {
        get { worked?.outcome }
        set { if let newValue { worked?.outcome = newValue } }
    }

    /// Decides the source's outcome in a working step a plugin adds (`.decided` then ends its
    /// working phase): nothing of it is filed, and the settling steps see `outcome`.
    public mutating func decide(_ outcome: SourceOutcome) {
        worked = WorkedSource(outcome: outcome, source: source)
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

// MARK: - WorkedSource

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
    /// SHA-256 of the source's bytes, where no row or kept copy below carries it (a text source
    /// another one's kept copy stands for, one hashed to prove its status): see `digestAsRead`.
    var sourceDigest: ContentDigest?
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

    /// SHA-256 of the source's bytes as they were read (or hashed to prove them unchanged): what
    /// a source whose status was racy, or whose change time alone moved, must still hash to
    /// before it is removed (`ImportPipeline.removeSource`).
    var digestAsRead: ContentDigest? {
        sourceDigest ?? keptCopy?.digest ?? imported.flatMap { ContentDigest(hex: $0.sha256) }
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

// MARK: - SourceOutcome

/// The result for one source, as listeners and `--json` report it.
public struct SourceOutcome: Sendable, Equatable {
    public var source: String
    public var status: ImportStatus
    /// The subject its items were filed under (the first, if several).
    public var subject: Subject?
    /// Every subject it filed items under, when more than one.
    public var subjects: [Subject]
    /// The filed file's absolute path (for a duplicate: the file it duplicates; for records:
    /// the first year file written).
    public var destination: String?
    /// The other files it filed, when it filed several (a second photo in it, a file a
    /// transform fanned out to), absolute.
    public var alsoFiled: [String] = []
    /// A photo's rendition filed beside it (a HEIC's JPEG), absolute.
    public var rendition: String?
    /// When a photo or movie was taken: its wall clock, with the offset from UTC when known
    /// (`2024-06-01T09:30:00+09:00`).
    public var taken: String?
    /// Which metadata gave `taken` (`CaptureDate.Origin.name`: `exif:DateTimeOriginal`,
    /// `filename`, `mtime`, ...).
    public var dateFrom: String?
    /// A photo's, movie's or sidecar's format, recognised by its content: the extension it is
    /// filed with (`jpg`, `heic`, `mov`, `aae`).
    public var format: String?
    /// A movie's turn as players apply it (degrees clockwise, from its track matrix).
    public var rotation: Int?
    /// A motion photo: its video is inside the filed file.
    public var motion = false
    /// Filed as it is though damaged (it still decodes): its warnings say how.
    public var damaged = false
    /// Its bytes went back under the name they were filed under before, where a damaged copy
    /// stood or nothing did: the library had lost them. Its warnings say where the damaged copy is.
    public var refiled = false
    /// Where the source's own bytes are kept under `originals/` (`--originals`), absolute.
    public var original: String?
    /// For failed, skipped and unassigned sources: why, in one line that names the file.
    public var error: String?
    /// For a failed source: the failure's stable name (`cannot-write`), when it has one.
    public var errorCode: String?
    /// For a failed source: the code of the layer below that failed (errno, SQLite's), when it
    /// gave one.
    public var cause: FailureCause.Code?
    /// Problems that did not stop the import (a broken EXIF block, a decoder warning).
    public var warnings: [String]
    /// Problems with parts of the source, each naming the file and line.
    public var problems: [String]
    /// How a log or CSV file was read: rows, records, problems, the date order and where it
    /// came from, each column's role and unit.
    public var reading: String?
    /// Records this source added, and records it held that were filed already.
    public var recordsAdded: Int
    public var recordsDuplicate: Int
    /// Records an earlier version of this source (same path, other bytes) gave that this
    /// version no longer does: taken out of their year files.
    public var recordsRemoved = 0
    /// Which of those an earlier version gave (`RecordStore.Removal.records`: the first
    /// `RecordStore.listedRemovals`, each its date, kind and line as written), so an edit never
    /// takes a record out unseen.
    public var replacedRecords: [String] = []
    /// Every profile the source changed or would have changed (a field typed by hand kept), one
    /// per subject, in the order the source gave them.
    public var profileChanges: [ProfileChange] = []
    /// `--move` removed the source after its content was durable in the library.
    public var sourceRemoved: Bool
    /// For a source that was not filed (failed, skipped, unassigned): the stage it stopped at.
    public var stage: ImportStage?

    public init(source: String, status: ImportStatus, stage: ImportStage? = nil, subject: Subject? = nil,
                subjects: [Subject] = [], destination: String? = nil, error: String? = nil, warnings: [String] = [],
                problems: [String] = [], recordsAdded: Int = 0, recordsDuplicate: Int = 0, sourceRemoved: Bool = false) {
        self.source = source
        self.status = status
        self.stage = stage
        self.subject = subject
        self.subjects = subjects
        self.destination = destination
        self.error = error
        self.warnings = warnings
        self.problems = problems
        self.recordsAdded = recordsAdded
        self.recordsDuplicate = recordsDuplicate
        self.sourceRemoved = sourceRemoved
    }

    /// A source that failed as `failure` says, before it was worked.
    public init(failed failure: ImportFailure) {
        self.init(source: failure.path, status: .failed)
        failed(failure)
    }

    /// Marks it failed as `failure` says: its stage, its reason naming the file (in front, unless
    /// the reason names it already), its codes.
    public mutating func failed(_ failure: ImportFailure) {
        status = .failed
        stage = failure.stage
        error = failure.reason.contains(source) ? failure.reason : "\(source): \(failure.reason)"
        errorCode = failure.code
        cause = failure.cause?.code
    }

    /// Why it was not filed, without its path in front (for a log line or a note that names the
    /// source apart), as a person should see it.
    public var reason: String {
        let error = self.error ?? status.rawValue
        let prefix = "\(source): "
        return SourcePath.displayed(error.hasPrefix(prefix) ? String(error.dropFirst(prefix.count)) : error)
    }

    /// Whether it finished but left something for a person to look at: problems with its lines,
    /// no subject to file under, or text read whole that gave no records (`dossier import`
    /// exits 3 then). A file that is no kind Dossier imports is not one.
    /// The error code of a source whose item `dossier remove` took out of its subject's folder
    /// (or `dossier move` moved, and is no longer where it went): skipped, as asked.
    public static let takenOutCode = "taken-out"
    /// The error code of a source whose filed copy is missing (deleted by hand): skipped, until a
    /// person says (`dossier verify --repair`, `dossier remove`).
    public static let filedCopyMissingCode = "filed-copy-missing"

    public var leavesSomethingForYou: Bool {
        switch status {
        case .imported, .duplicate: return !problems.isEmpty
        case .unassigned: return true
        case .skipped: return stage == .read || errorCode == SourceOutcome.filedCopyMissingCode
        case .failed: return false
        }
    }

    /// Whether the source held records (so counts belong in reports).
    public var hasRecords: Bool { recordsAdded + recordsDuplicate > 0 }
}

extension SourceOutcome {
    /// Adds what the source did to a profile; a second profile of the same subject in one source
    /// adds to the first's.
    mutating func noting(_ change: ProfileChange) {
        guard let index = profileChanges.firstIndex(where: { $0.subject == change.subject }) else {
            profileChanges.append(change)
            return
        }
        for field in change.changed where !profileChanges[index].changed.contains(field) {
            profileChanges[index].changed.append(field)
        }
        profileChanges[index].keptTyped += change.keptTyped
    }
}
