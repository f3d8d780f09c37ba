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
    public var leavesSomethingForYou: Bool {
        switch status {
        case .imported, .duplicate: return !problems.isEmpty
        case .unassigned: return true
        case .skipped: return stage == .read
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
