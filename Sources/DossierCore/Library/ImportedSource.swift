import GRDB

/// A source that an earlier import settled, so a re-run can skip it without reading it while its
/// whole status is unchanged (path, size, modification time, device, inode and change time), and
/// it is still the file that was imported (not removed by Dossier since: a file that lands on a
/// path Dossier emptied is a new one).
public struct ImportedSource: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "source"

    public var path: String
    /// The `--subject` of that run ("" without one): the same file imported for another subject
    /// is another import.
    public var requestedSubject: String
    public var size: Int64
    public var modificationTime: Int64
    /// Device, inode and change time (ns) of the file as it was read (`SourceFile`); nil in a row
    /// from before they were kept, which proves nothing unchanged: that source is read and
    /// hashed, and its status kept then. (Device and inode as SQLite's signed integers, bit for bit.)
    public var device: Int64?
    public var inode: Int64?
    public var changeTime: Int64?
    /// When that status was taken (ns): a change time too close to it proves nothing
    /// (`SourceFile.statusIsRacy`), and the source is hashed before it is settled by it. Nil in a
    /// row from before it was kept: hashed too.
    public var statusTakenAt: Int64?
    public var sha256: String
    public var subject: String
    /// The filed file holding its content, relative to the library root.
    public var filedPath: String
    /// When Dossier removed it from its path once it was safe in the library (`--move`, the
    /// daemon); nil while it is still there.
    public var departedAt: String?

    public init(path: String, requestedSubject: String, size: Int64, modificationTime: Int64, sha256: String,
                subject: String, filedPath: String, departedAt: String? = nil) {
        self.path = path
        self.requestedSubject = requestedSubject
        self.size = size
        self.modificationTime = modificationTime
        self.sha256 = sha256
        self.subject = subject
        self.filedPath = filedPath
        self.departedAt = departedAt
    }

    /// The row of `source` as it was found and read, with its whole status.
    public init(_ source: SourceFile, requestedSubject: String, sha256: String, subject: String, filedPath: String) {
        self.init(path: source.path, requestedSubject: requestedSubject, size: source.size,
                  modificationTime: source.modificationTime, sha256: sha256, subject: subject, filedPath: filedPath)
        device = source.identity.map { Int64(bitPattern: $0.device) }
        inode = source.identity.map { Int64(bitPattern: $0.inode) }
        changeTime = source.changeTime
        statusTakenAt = source.statusTakenAt
    }

    /// Whether its status alone proves a file of that status unchanged since it was read: it was
    /// not racy when taken (`SourceFile.statusIsRacy`). Else the file's bytes must hash to `sha256`.
    public var statusProvesUnchanged: Bool {
        !SourceFile.statusIsRacy(changeTime: changeTime, takenAt: statusTakenAt)
    }

    /// The device and inode it was read from, when the row keeps them.
    public var identity: FileIdentity? {
        guard let device, let inode else { return nil }
        return FileIdentity(device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode))
    }

    enum CodingKeys: String, CodingKey {
        case path, size, sha256, subject, device, inode
        case requestedSubject = "requested_subject"
        case modificationTime = "mtime_ns"
        case changeTime = "ctime_ns"
        case statusTakenAt = "status_at_ns"
        case filedPath = "filed_path"
        case departedAt = "departed_at"
    }
}

// MARK: - FiledFile

/// One file in a subject folder, as the index knows it.
public struct FiledFile: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "filed"

    /// Relative to the library root, e.g. `pets/leo/photos/2024/...jpg`.
    public var path: String
    /// `pets/leo`.
    public var subject: String
    /// SHA-256 of the filed bytes.
    public var sha256: String
    /// SHA-256 of the source it came from; nil when the index was rebuilt from the folders.
    public var sourceSha256: String?
    public var size: Int64
    public var capturedAt: String?
    public var filedAt: String
    /// Apple's content identifier, which a Live Photo's still and movie share: how the two find
    /// each other across imports, whatever their names.
    public var contentIdentifier: String?

    public init(path: String, subject: String, sha256: String, sourceSha256: String?, size: Int64,
                capturedAt: String?, filedAt: String, contentIdentifier: String? = nil) {
        self.path = path
        self.subject = subject
        self.sha256 = sha256
        self.sourceSha256 = sourceSha256
        self.size = size
        self.capturedAt = capturedAt
        self.filedAt = filedAt
        self.contentIdentifier = contentIdentifier
    }

    enum CodingKeys: String, CodingKey {
        case path, subject, sha256, size
        case sourceSha256 = "source_sha256"
        case capturedAt = "captured_at"
        case filedAt = "filed_at"
        case contentIdentifier = "content_identifier"
    }
}

// MARK: - PhotoRows

/// What one photo source gave the index: its filed files and their renditions, its source row,
/// and the originals kept of it; committed with others (`IndexBatch`).
public struct PhotoRows: Sendable {
    public var filed: [FiledFile]
    public var renditions: [FiledRendition]
    public var source: ImportedSource?
    public var originals: [KeptOriginal]

    public init(filed: [FiledFile], renditions: [FiledRendition] = [], source: ImportedSource?, originals: [KeptOriginal] = []) {
        self.filed = filed
        self.renditions = renditions
        self.source = source
        self.originals = originals
    }
}

// MARK: - RecordFileSummary

/// A year file of records as the index knows it: how many records, and the digest of its bytes
/// (so a reader can tell whether the file changed behind the index's back).
public struct RecordFileSummary: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "record_file"

    /// Relative to the library root: `pets/leo/records/2023.jsonl`.
    public var path: String
    public var subject: String
    public var year: Int
    public var count: Int
    public var sha256: String

    public init(path: String, subject: String, year: Int, count: Int, sha256: String) {
        self.path = path
        self.subject = subject
        self.year = year
        self.count = count
        self.sha256 = sha256
    }
}

// MARK: - SourceYearFile

/// A year file that records from one version of a source (its kept copy) went to, and where that
/// version stands in its source's history: what a re-import of an edited source reads to take
/// out the records its earlier versions gave and this one does not.
///
/// A source is known by its history, not by its path alone. The versions of one file, edited in
/// place and imported again, form its lineage (the current version and those it superseded); a
/// file that arrives at a path Dossier emptied (`--move`, the daemon), a quarantined source
/// retried, or a copy at another path starts a lineage of its own. Only the lineage of the file
/// still at a path is replaced by its next version; a departed one's records stay for good.
public struct SourceYearFile: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "source_year_file"

    public var sourcePath: String
    public var keptPath: String
    /// Relative to the library root: `pets/leo/records/2024.jsonl`.
    public var yearFile: String
    /// The subject the source's path gave its entries that name none (nil: none): two sources
    /// with the same bytes give the same records only when their paths route them alike.
    public var routeSubject: String?
    /// A later version of the same file was imported: its records are that version's to replace.
    public var superseded: Bool
    /// When the file left its path (removed by Dossier once filed, or read from the quarantine):
    /// from then on no file at that path is this one edited, and its records are never replaced.
    public var departedAt: String?
    /// Device, inode and birth time (`statx`, ns) of the file this version was read from, where
    /// they are known (an import, or `index rebuild` finding the version's very bytes at its
    /// path): what tells that file edited in place from a new one given a freed inode's number
    /// (`SourceContinuity`). Nil when not known, or where the file system keeps no birth time.
    /// (Device and inode as SQLite's signed integers, bit for bit.)
    public var device: Int64?
    public var inode: Int64?
    public var birthTime: Int64?

    public init(sourcePath: String, keptPath: String, yearFile: String, routeSubject: String? = nil,
                superseded: Bool = false, departedAt: String? = nil) {
        self.sourcePath = sourcePath
        self.keptPath = keptPath
        self.yearFile = yearFile
        self.routeSubject = routeSubject
        self.superseded = superseded
        self.departedAt = departedAt
    }

    /// The version still at its path: neither superseded nor departed.
    public var isCurrent: Bool { !superseded && departedAt == nil }

    /// The file this version was read from, when its device, inode and birth time are all known.
    public var file: (identity: FileIdentity, birthTime: Int64)? {
        get {
            guard let device, let inode, let birthTime else { return nil }
            return (FileIdentity(device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode)), birthTime)
        }
        set {
            device = newValue.map { Int64(bitPattern: $0.identity.device) }
            inode = newValue.map { Int64(bitPattern: $0.identity.inode) }
            birthTime = newValue?.birthTime
        }
    }

    enum CodingKeys: String, CodingKey {
        case sourcePath = "source_path"
        case keptPath = "kept_path"
        case yearFile = "year_file"
        case routeSubject = "route_subject"
        case superseded, device, inode
        case departedAt = "departed_at"
        case birthTime = "btime_ns"
    }
}

// MARK: - SourceLedger

/// A source's entries in the problems ledger, as one import found them: they replace whatever
/// an earlier import of the same source left.
public struct SourceLedger: Sendable, Equatable {
    public var sourcePath: String
    public var keptPath: String?
    public var problems: [LedgerProblem]

    public init(sourcePath: String, keptPath: String?, problems: [LedgerProblem]) {
        self.sourcePath = sourcePath
        self.keptPath = keptPath
        self.problems = problems
    }
}

// MARK: - ProblemContinuity

/// Which problem found by reading a source again is one the ledger already holds, so that it
/// keeps its id (and when it was first found) until it is solved or dismissed: an id a person read
/// in `dossier problems` must still name the same line after a retry or a re-import.
///
/// A problem is the same when it is about the same line as written: the same text, whatever its
/// line number (a line inserted above it in an edited log moves it down, and it is still the same
/// line). Its reason may change (a retry after `subjects add` suggests other names) and it is still
/// that line not filed. A problem with no text of its line (one about the whole source) is the same
/// when its reason is. Several problems alike (two copies of a title line) are paired in the order
/// they stand in the source. What finds no partner is new and gets a new id; an old problem that
/// finds none was solved, and goes.
public enum ProblemContinuity {
    /// The new problems, those found before carrying their earlier id and first finding time.
    public static func carry(from earlier: [LedgerProblem], to found: [LedgerProblem]) -> [LedgerProblem] {
        var result = found
        var unmatched = Array(found.indices)
        var available = earlier.sorted { ($0.line ?? 0, $0.id ?? 0) < ($1.line ?? 0, $1.id ?? 0) }
        // The closest pairing first (the very line and reason), then the same line for a new reason,
        // then a problem about the whole source by what it is about, its reason's words before the
        // first colon ("column 'weight' has no unit: 12 values read as g" counts what changes).
        let passes: [(LedgerProblem) -> String?] = [
            { problem in problem.text.map { "text\u{0}\($0)\u{0}\(problem.reason)" } ?? "reason\u{0}\(problem.reason)" },
            { problem in problem.text.map { "text\u{0}\($0)" } },
            { problem in
                guard problem.text == nil, let colon = problem.reason.range(of: ": ") else { return nil }
                return "about\u{0}\(problem.reason[..<colon.lowerBound])"
            },
        ]
        for key in passes {
            var waiting: [String: [Int]] = [:]
            for (position, problem) in available.enumerated() {
                if let key = key(problem) { waiting[key, default: []].append(position) }
            }
            var taken = Set<Int>()
            unmatched = unmatched
                .sorted { (found[$0].line ?? 0, $0) < (found[$1].line ?? 0, $1) }
                .filter { index in
                    guard let key = key(found[index]), var candidates = waiting[key], !candidates.isEmpty else { return true }
                    let position = candidates.removeFirst()
                    waiting[key] = candidates
                    taken.insert(position)
                    result[index].id = available[position].id
                    result[index].foundAt = available[position].foundAt
                    return false
                }
            available = available.enumerated().filter { !taken.contains($0.offset) }.map(\.element)
        }
        return result
    }
}
