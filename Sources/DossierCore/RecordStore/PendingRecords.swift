import Foundation

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

