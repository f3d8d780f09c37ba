import Foundation

/// Collects one source's records as they stream in: encoded, grouped by year file, and when the
/// buffer passes `memoryLimit`, sorted and written to run files in staging. So a source of any
/// size is held in at most `memoryLimit` bytes (plus a line's worth).
public final class RecordSpill {
    private let stagingFolder: String
    private let memoryLimit: Int
    /// In a dry run nothing is written: records are only counted.
    private let dryRun: Bool
    private var buffered: [RecordGroup: [(key: RecordLine.Key, line: [UInt8])]] = [:]
    private var bufferedBytes = 0
    private var pending = PendingRecords()

    public init(stagingFolder: String, dryRun: Bool, memoryLimit: Int = 8 << 20) {
        self.stagingFolder = stagingFolder
        self.dryRun = dryRun
        self.memoryLimit = memoryLimit
    }

    /// A record made ready for the spill: its year file, sort key and line. Made apart from the
    /// spill, so that records can be encoded on several cores at once.
    public struct Encoded: Sendable {
        let group: RecordGroup
        let key: RecordLine.Key
        let line: [UInt8]

        public init(_ record: Record) {
            group = RecordGroup(subject: record.subject, year: record.date.year)
            key = RecordLine.Key(record)
            line = RecordLine.encode(record)
        }
    }

    public func add(_ record: Record) throws {
        try add(Encoded(record))
    }

    public func add(_ encoded: Encoded) throws {
        pending.counts[encoded.group, default: 0] += 1
        guard !dryRun else {
            pending.ids[encoded.group, default: []].insert(encoded.key.id)
            return
        }
        bufferedBytes += encoded.line.count + 64
        buffered[encoded.group, default: []].append((encoded.key, encoded.line))
        if bufferedBytes >= memoryLimit { try spill() }
    }

    /// The runs, with everything still buffered written out.
    public func finish() throws -> PendingRecords {
        try spill()
        return pending
    }

    public func discard() {
        buffered = [:]
        pending.discard()
    }

    /// Writes every group's buffered lines, each group sorted, into one run file, through a small
    /// buffer (the lines are not copied into one big array on top of the buffer they are in).
    /// Durability is not needed: a run that does not survive a crash is made again by the re-run.
    private func spill() throws {
        guard !buffered.isEmpty else { return }
        let path = "\(stagingFolder)/\(UUID().uuidString).run"
        let writer = try RunFileWriter(path: path)
        for group in buffered.keys.sorted() {
            let start = writer.written
            buffered[group]!.sort { $0.key < $1.key }
            for entry in buffered[group]! { try writer.write(entry.line) }
            buffered[group] = nil
            pending.runs[group, default: []].append(PendingRecords.Run(path: path, offset: start, length: writer.written - start))
        }
        try writer.close()
        bufferedBytes = 0
    }
}
