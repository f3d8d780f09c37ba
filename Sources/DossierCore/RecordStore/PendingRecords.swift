import Foundation

/// The records one source produced, sorted into run files in staging, waiting to be merged
/// into their year files. Nothing in a subject folder changes until they are committed.
public struct PendingRecords: Sendable {
    /// Run files per year file; each run is sorted by date and id.
    public internal(set) var runs: [RecordGroup: [String]] = [:]
    /// Records per year file, before deduplication.
    public internal(set) var counts: [RecordGroup: Int] = [:]

    public init() {}

    public var total: Int { counts.values.reduce(0, +) }

    public var subjects: [Subject] { Array(Set(counts.keys.map(\.subject))).sorted() }

    /// Removes the run files (a failed source, or after the commit).
    public func discard() {
        for path in runs.values.joined() { unlink(path) }
    }
}

