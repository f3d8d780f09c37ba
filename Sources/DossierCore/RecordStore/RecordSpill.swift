import Foundation

/// Collects one source's records as they stream in: encoded, grouped by year file, and when the
/// buffer passes `memoryLimit`, sorted and written to run files in staging. So a source of any
/// size is held in at most `memoryLimit` bytes (plus a line's worth).
public final class RecordSpill {
    private let stagingFolder: String
    private let memoryLimit: Int
    /// In a dry run nothing is written: records are only counted.
    private let dryRun: Bool
    private var buffered: [RecordGroup: [[UInt8]]] = [:]
    private var bufferedBytes = 0
    private var pending = PendingRecords()

    public init(stagingFolder: String, dryRun: Bool, memoryLimit: Int = 8 << 20) {
        self.stagingFolder = stagingFolder
        self.dryRun = dryRun
        self.memoryLimit = memoryLimit
    }

    public func add(_ record: Record) throws {
        let group = RecordGroup(subject: record.subject, year: record.date.year)
        pending.counts[group, default: 0] += 1
        guard !dryRun else { return }
        let line = RecordLine.encode(record)
        bufferedBytes += line.count + 48
        buffered[group, default: []].append(line)
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

    private func spill() throws {
        for (group, lines) in buffered {
            let sorted = lines.map { (RecordLine.key(of: $0[...])!, $0) }.sorted { $0.0 < $1.0 }
            let path = "\(stagingFolder)/\(UUID().uuidString).run"
            var bytes: [UInt8] = []
            bytes.reserveCapacity(lines.reduce(0) { $0 + $1.count })
            for (_, line) in sorted { bytes += line }
            // Durability is not needed: a run that does not survive a crash is re-made by the re-run.
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw LibraryError.cannotWrite(path: path, reason: "cannot write a run file in staging")
            }
            pending.runs[group, default: []].append(path)
        }
        buffered = [:]
        bufferedBytes = 0
    }
}
