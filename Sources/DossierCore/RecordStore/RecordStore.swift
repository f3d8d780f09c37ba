import Crypto
import Foundation

/// The records in subject folders: `<kind>/<id>/records/<YYYY>.jsonl`, one JSON object per
/// line, sorted by date (then id), each record once.
///
/// New records arrive as sorted runs (`PendingRecords`) and are merged with the year file in one
/// streaming pass; the merged file replaces the old one atomically. A record whose id the file
/// already holds is a duplicate and is dropped, so importing the same entries again adds nothing.
/// Commits are not safe to run concurrently on one library: the pipeline makes them one at a time.
public struct RecordStore: Sendable {
    public let layout: LibraryLayout

    public init(layout: LibraryLayout) {
        self.layout = layout
    }

    /// What committing one source's records did.
    public struct CommitResult: Sendable, Equatable {
        public var added = 0
        public var duplicate = 0
        /// The year files that gained records, relative to the library root.
        public var changedFiles: [RecordFileSummary] = []
        /// Every year file the source's records belong to (changed or not).
        public var files: [String] = []
        /// For the year files asked for: the ids of every record the source gave there.
        public var ids: [String: Set<UInt64>] = [:]
        /// Records read again (`rereading`) that differ from the copy of the same id the file
        /// held, which they replaced.
        public var replaced = 0
    }

    /// With `collectingIDsIn`, the ids of the source's records in those year files are kept in
    /// the result (a re-import of an edited source needs them to tell its earlier version's
    /// records that are gone from those that are not). With `rereading` (a source's problems
    /// retried after the library's settings changed), a record whose id the file holds replaces
    /// the copy there when it reads differently now (a unit settled, a kind found).
    public func commit(_ pending: PendingRecords, collectingIDsIn collected: Set<String> = [],
                       rereading: Bool = false) throws -> CommitResult {
        var result = CommitResult()
        // Runs renamed into place as year files are gone from staging: removing them again
        // would only walk their paths again.
        var placed: Set<String> = []
        defer { pending.discard(except: placed) }
        // Year files are renamed into place one by one, and each folder is fsynced once at the
        // end, before the caller records them in the index.
        var renamedIn: Set<String> = []
        for group in pending.runs.keys.sorted() {
            // Worked out once a year file: a big import commits hundreds of them.
            let relativePath = group.relativePath
            let target = try layout.url(forRelativePath: relativePath).path
            let merged = try merge(group, relativePath: relativePath, target: target, runs: pending.runs[group] ?? [],
                                   count: pending.counts[group] ?? 0, collectingIDs: collected.contains(relativePath),
                                   rereading: rereading)
            if let path = merged.placedRun { placed.insert(path) }
            if let ids = merged.ids { result.ids[relativePath] = ids }
            result.added += merged.added
            result.replaced += merged.replaced
            result.duplicate += merged.duplicate
            result.files.append(relativePath)
            if let summary = merged.summary {
                result.changedFiles.append(summary)
                renamedIn.insert((target as NSString).deletingLastPathComponent)
            }
        }
        for folder in renamedIn.sorted() { try layout.files.syncFolder(folder) }
        return result
    }

    /// What committing would do, for a dry run: reads the year files, writes nothing.
    /// `notYetAdded` leaves out of a year file's ids those an earlier source of the same dry run
    /// would add (and notes the rest): they would be duplicates by then.
    public func wouldCommit(_ pending: PendingRecords,
                            notYetAdded: (Set<UInt64>, String) -> Set<UInt64> = { ids, _ in ids }) throws -> CommitResult {
        var result = CommitResult()
        for group in pending.counts.keys.sorted() {
            var fresh = pending.ids[group] ?? []
            let target = try layout.url(forRelativePath: group.relativePath).path
            if layout.files.isFile(target) {
                let reader = try ByteLineReader(path: target, in: layout.files)
                while let line = reader.next(), !fresh.isEmpty {
                    if let key = RecordLine.key(of: line) { fresh.remove(key.id) }
                }
            }
            fresh = notYetAdded(fresh, group.relativePath)
            let total = pending.counts[group] ?? 0
            result.added += fresh.count
            result.duplicate += total - fresh.count
            result.files.append(group.relativePath)
        }
        return result
    }

    private struct Merged {
        var added = 0
        var duplicate = 0
        var replaced = 0
        var summary: RecordFileSummary?
        var ids: Set<UInt64>?
        /// The run that became the year file as it was.
        var placedRun: String?
    }

    private func merge(_ group: RecordGroup, relativePath: String, target: String, runs: [PendingRecords.Run],
                       count total: Int, collectingIDs: Bool = false, rereading: Bool = false) throws -> Merged {
        let existing = try layout.files.entryType(target)
        if existing == .symbolicLink { throw LibraryError.symbolicLink(path: target) }
        if runs.count == 1, let whole = runs[0].whole, existing == nil, !collectingIDs {
            // Written in order, each record once, and fsynced: the year file as it is.
            try layout.files.rename(runs[0].path, replacing: target, sync: false)
            return Merged(added: whole.lines, duplicate: total - whole.lines,
                          summary: RecordFileSummary(path: relativePath, subject: group.subject.path,
                                                     year: group.year, count: whole.lines, sha256: whole.sha256.hex),
                          placedRun: runs[0].path)
        }
        var inputs: [MergeInput] = []
        if existing != nil {
            inputs.append(try MergeInput(reader: try ByteLineReader(path: target, in: layout.files), isExisting: true))
        }
        for run in runs {
            inputs.append(try MergeInput(reader: try ByteLineReader(path: run.path, in: layout.files, offset: run.offset, length: run.length),
                                         isExisting: false))
        }

        let staged = layout.stagingFolder.appendingPathComponent("\(UUID().uuidString).jsonl").path
        let writer = try StagingFileWriter(path: staged, in: layout.files)
        var merged = Merged()
        if collectingIDs { merged.ids = [] }
        var count = 0
        // A record's id holds its date, so copies of one record share a day: the ids of the
        // current day are all a merge needs to remember to keep each record once.
        var currentDay: UInt64 = .max
        var idsOfDay = Set<UInt64>()
        do {
            // Rereading, the new copy of a record comes before the file's: the last line written,
            // to tell a record that reads the same as before from one that reads differently.
            var lastNew: (id: UInt64, line: [UInt8])?
            while let next = MergeInput.smallest(of: inputs, existingFirst: !rereading) {
                let input = inputs[next]
                let (key, line) = (input.key, input.line!)
                if !input.isExisting { merged.ids?.insert(key.id) }
                if key.day != currentDay {
                    currentDay = key.day
                    idsOfDay.removeAll(keepingCapacity: true)
                }
                if key.id != 0 && !idsOfDay.insert(key.id).inserted {
                    if !input.isExisting {
                        merged.duplicate += 1
                    } else if let lastNew, lastNew.id == key.id {
                        // The file's copy of a record just written again: unchanged, or replaced.
                        if lastNew.line.elementsEqual(line) {
                            merged.added -= 1
                            merged.duplicate += 1
                        } else {
                            merged.added -= 1
                            merged.replaced += 1
                        }
                    }
                } else {
                    try writer.writeLine(line)
                    count += 1
                    if !input.isExisting {
                        merged.added += 1
                        if rereading { lastNew = (key.id, Array(line)) }
                    }
                }
                input.advance()
            }
            guard merged.added > 0 || merged.replaced > 0 else {
                writer.abandon()
                return merged
            }
            let digest = try writer.finish()
            try layout.files.rename(staged, replacing: target, sync: false)
            merged.summary = RecordFileSummary(path: relativePath, subject: group.subject.path, year: group.year,
                                               count: count, sha256: digest.hex)
            return merged
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// The year files of a subject, oldest first, relative to the library root.
    public func yearFiles(of subject: Subject) -> [(year: Int, path: String)] {
        let folder = layout.folder(for: subject).appendingPathComponent("records").path
        let names = (try? layout.files.names(in: folder)) ?? []
        return names.compactMap { name -> (Int, String)? in
            guard name.hasSuffix(".jsonl"), let year = Int(name.dropLast(6)), name.count == 10 else { return nil }
            return (year, "\(subject.path)/records/\(name)")
        }.sorted { $0.0 < $1.0 }
    }

    /// Reads a subject's records in date order, calling `body` for each one within the range.
    public func forEachRecord(of subject: Subject, from start: RecordDate? = nil, through end: RecordDate? = nil,
                              _ body: (Record) throws -> Void) throws {
        let decoder = JSONDecoder()
        for file in yearFiles(of: subject) {
            if let start, file.year < start.year { continue }
            if let end, file.year > end.year { continue }
            let reader = try ByteLineReader(path: try layout.url(forRelativePath: file.path).path, in: layout.files)
            var lineNumber = 0
            while let line = reader.next() {
                lineNumber += 1
                guard !line.isEmpty else { continue }
                let record: Record
                do {
                    record = try decoder.decode(Record.self, from: Data(line))
                } catch {
                    throw LibraryError.damagedYearFile(path: file.path, line: lineNumber, reason: "not a record line: \(error)")
                }
                if let start, record.date.dayOnly < start.dayOnly { continue }
                if let end, end.dayOnly < record.date.dayOnly { continue }
                try body(record)
            }
        }
    }
}

// MARK: - PendingRecords

/// The records one source produced, sorted into run files in staging, waiting to be merged
/// into their year files. Nothing in a subject folder changes until they are committed.
public struct PendingRecords: Sendable {
    /// A sorted run of one year file's records: a byte range of a run file in staging (one run
    /// file holds a spill's runs for every year file, so a big import opens few files).
    public struct Run: Sendable, Equatable {
        public let path: String
        public let offset: Int
        public let length: Int
        /// Set when the run is a whole file of distinct records (`InOrderRun`): with no year
        /// file yet and no other run, it becomes the year file as it is.
        public let whole: WholeFile?

        init(path: String, offset: Int, length: Int, whole: WholeFile? = nil) {
            self.path = path
            self.offset = offset
            self.length = length
            self.whole = whole
        }
    }

    /// What a year file's index entry needs of a run that is a whole file.
    public struct WholeFile: Sendable, Equatable {
        public let sha256: ContentDigest
        public let lines: Int
    }

    /// Runs per year file; each run is sorted.
    public internal(set) var runs: [RecordGroup: [Run]] = [:]
    /// Records per year file, before deduplication.
    public internal(set) var counts: [RecordGroup: Int] = [:]
    /// In a dry run, where nothing is spilled: the ids of the records per year file, so that the
    /// ones already filed can be told apart without writing anything.
    public internal(set) var ids: [RecordGroup: Set<UInt64>] = [:]

    /// Where the run files lie: they are removed through it.
    let files: LibraryFileSystem?

    public init(files: LibraryFileSystem? = nil) {
        self.files = files
    }

    public var total: Int { counts.values.reduce(0, +) }

    public var subjects: [Subject] { Array(Set(counts.keys.map(\.subject))).sorted() }

    /// The year files they go to, relative to the library root.
    public var yearFiles: [String] { counts.keys.map(\.relativePath).sorted() }

    /// Removes the run files (a failed source, or after the commit).
    public func discard() {
        discard(except: [])
    }

    /// Removes the run files but those given (already given their place as year files).
    func discard(except placed: Set<String>) {
        for path in Set(runs.values.joined().map(\.path)).subtracting(placed) { try? files?.remove(path) }
    }
}

// MARK: - RecordGroup

/// The records of one subject in one year: one file, `<kind>/<id>/records/<YYYY>.jsonl`.
public struct RecordGroup: Hashable, Comparable, Sendable {
    public let subject: Subject
    public let year: Int
    /// Worked out once, where a record is encoded (on any core): the spill, on its one thread,
    /// looks every record's group up, and hashing the subject's strings there each time cost more
    /// than the lookups themselves.
    private let subjectAndYearHash: Int

    public init(subject: Subject, year: Int) {
        self.subject = subject
        self.year = year
        var hasher = Hasher()
        hasher.combine(subject)
        hasher.combine(year)
        subjectAndYearHash = hasher.finalize()
    }

    public var relativePath: String { "\(subject.path)/records/\(String(format: "%04d", year)).jsonl" }

    /// The subject and year of a year file's path, `pets/leo/records/2024.jsonl`; nil for any
    /// other path.
    public static func parse(relativePath: String) -> (Subject, Int)? {
        let parts = relativePath.split(separator: "/")
        guard parts.count == 4, parts[2] == "records", parts[3].hasSuffix(".jsonl"),
              let year = Int(parts[3].dropLast(6)),
              let subject = try? Subject(parsing: "\(parts[0])/\(parts[1])")
        else { return nil }
        return (subject, year)
    }

    public static func == (lhs: RecordGroup, rhs: RecordGroup) -> Bool {
        lhs.subjectAndYearHash == rhs.subjectAndYearHash && lhs.year == rhs.year && lhs.subject == rhs.subject
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(subjectAndYearHash)
    }

    public static func < (lhs: RecordGroup, rhs: RecordGroup) -> Bool {
        (lhs.subject, lhs.year) < (rhs.subject, rhs.year)
    }
}
