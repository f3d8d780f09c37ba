import Foundation

/// Collects one source's records as they stream in, by year file. While a year file's records
/// come in date order they go straight to an `InOrderRun`; the others are buffered and, when
/// the buffer passes `memoryLimit`, sorted and written to run files in staging. So a source of
/// any size is held in at most `memoryLimit` bytes (plus a line's worth).
public final class RecordSpill {
    /// What the spill keeps of one year file.
    private final class GroupState {
        // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
        /// Records added, before deduplication.
        @exclusivity(unchecked) var count = 0
        /// Open while the year file's records come in date order.
        @exclusivity(unchecked) var run: InOrderRun?
        /// Its records came out of order, or came again after its run was closed: from then on
        /// they are buffered and spilled.
        @exclusivity(unchecked) var outOfOrder = false
    }

    /// Year files written in order at once, each through its own open file and buffer; past it,
    /// the one that waited longest is closed.
    static let inOrderLimit = 64

    /// A year file's run that this many records passed by without one for it is closed, and
    /// fsynced behind the writing: in a log in date order its year is done. Left open, the runs
    /// of the years before were all fsynced at the end, with the import waiting
    /// (docs/performance.md, "RecordSpill.idleRecords"). A record that still comes for a closed
    /// run is buffered and merged, as after any closed run.
    static let idleRecords = 1 << 15

    private let stagingFolder: String
    private let files: LibraryFileSystem
    private let memoryLimit: Int
    /// In a dry run nothing is written: records are only counted.
    private let dryRun: Bool
    /// What is kept of each year file met so far: looked up once for each record.
    @exclusivity(unchecked) private var groups: [RecordGroup: GroupState] = [:]
    /// The groups with an in-order run open: at most `inOrderLimit`.
    @exclusivity(unchecked) private var open: [RecordGroup: GroupState] = [:]
    /// Records added so far: the clock `InOrderRun.lastUse` is read on.
    @exclusivity(unchecked) private var uses = 0
    @exclusivity(unchecked) private var buffered: [RecordGroup: LineBuffer] = [:]
    @exclusivity(unchecked) private var bufferedBytes = 0
    @exclusivity(unchecked) private var heldBytes = 0
    @exclusivity(unchecked) private var pending: PendingRecords
    /// Runs closed before the end are made durable behind the writing.
    private let closedRuns = BackgroundFileSync()

    public init(layout: LibraryLayout, dryRun: Bool, memoryLimit: Int = 8 << 20) {
        stagingFolder = layout.stagingFolder.path
        files = layout.files
        pending = PendingRecords(files: files)
        self.dryRun = dryRun
        self.memoryLimit = memoryLimit
    }

    public func add(_ record: Record) throws {
        var encoded = EncodedRecords(capacity: 1)
        encoded.append(record)
        try add(encoded)
    }

    public func add(_ records: EncodedRecords) throws {
        // Each of the batch's year files is looked up once, not once for each of its records.
        let states = records.groups.map { groups[$0] ?? newState(for: $0) }
        try records.forEachLine { entry, line in
            try add(entry, group: records.groups[entry.groupIndex], state: states[entry.groupIndex], line: line)
        }
    }

    private func add(_ entry: EncodedRecords.Entry, group: RecordGroup, state: GroupState,
                     line: UnsafeBufferPointer<UInt8>) throws {
        state.count += 1
        guard !dryRun else {
            pending.ids[group, default: []].insert(entry.key.id)
            return
        }
        if let run = try inOrderRun(for: group, state, accepting: entry.key) {
            heldBytes -= run.heldBytes
            try run.add(entry.key, line)
            heldBytes += run.heldBytes
        } else {
            buffered[group, default: LineBuffer()].append(entry.key, line)
            bufferedBytes += LineBuffer.footprint(ofLine: line.count)
        }
        if bufferedBytes + heldBytes >= memoryLimit { try spill() }
    }

    /// The group's in-order run if the key keeps it in order (opening one for a new group, and
    /// closing the longest idle one past `inOrderLimit`); nil sends the record to the buffer. A
    /// record out of order closes the group's run: it stays one sorted run of the group.
    private func inOrderRun(for group: RecordGroup, _ state: GroupState,
                            accepting key: RecordLine.Key) throws -> InOrderRun? {
        uses += 1
        if uses % (RecordSpill.idleRecords / 2) == 0 {
            // Not the run this record is for: it is in use.
            state.run?.lastUse = uses
            try closeIdleRuns()
        }
        if let run = state.run {
            run.lastUse = uses
            if run.accepts(key) { return run }
            try close(group, state)
            return nil
        }
        guard !state.outOfOrder else { return nil }
        if open.count >= RecordSpill.inOrderLimit, let idle = open.min(by: { $0.value.run!.lastUse < $1.value.run!.lastUse }) {
            // In a log in date order, the year file that waited longest is done: a year past.
            try close(idle.key, idle.value)
        }
        let run = try InOrderRun(path: "\(stagingFolder)/\(UUID().uuidString).run", in: files)
        run.lastUse = uses
        state.run = run
        open[group] = state
        return run
    }

    /// Closes the runs that `idleRecords` records passed by.
    private func closeIdleRuns() throws {
        for (group, state) in open where uses - state.run!.lastUse > RecordSpill.idleRecords {
            try close(group, state)
        }
    }

    private func newState(for group: RecordGroup) -> GroupState {
        let state = GroupState()
        groups[group] = state
        return state
    }

    /// Closes a group's run; it is fsynced behind the writing, or by `finish` with the others.
    private func close(_ group: RecordGroup, _ state: GroupState, syncing: Bool = true) throws {
        guard let run = state.run else { return }
        state.run = nil
        open[group] = nil
        heldBytes -= run.heldBytes
        pending.runs[group, default: []].append(try run.finish())
        if syncing { closedRuns.sync(run.path, in: files) }
        state.outOfOrder = true
    }

    /// The runs, with everything still buffered or held written out, all of them durable. The
    /// in-order runs still open are fsynced together: one after another, they kept the end of a
    /// big import waiting.
    public func finish() throws -> PendingRecords {
        try spill()
        let paths = open.values.map { $0.run!.path }
        for (group, state) in open.sorted(by: { $0.key < $1.key }) { try close(group, state, syncing: false) }
        try files.syncFiles(paths)
        try closedRuns.wait()
        for (group, state) in groups { pending.counts[group] = state.count }
        return pending
    }

    public func discard() {
        for state in open.values {
            state.run?.abandon()
            state.run = nil
        }
        open = [:]
        buffered = [:]
        pending.discard()
    }

    /// Writes the held days of the in-order runs, and every buffered group's lines, each group
    /// sorted, into one run file, through a small buffer (the lines are not copied into one big
    /// array on top of the buffer they are in). Durability is not needed: a run that does not
    /// survive a crash is made again by the re-run.
    private func spill() throws {
        for state in open.values { try state.run?.writeHeld() }
        heldBytes = 0
        guard !buffered.isEmpty else { return }
        let path = "\(stagingFolder)/\(UUID().uuidString).run"
        let writer = try StagingFileWriter(path: path, in: files, hashing: false)
        for group in buffered.keys.sorted() {
            let start = writer.written
            var lines = buffered.removeValue(forKey: group)!
            try lines.drainSorted { (_, line) throws(LibraryError) in try writer.write(line) }
            pending.runs[group, default: []].append(PendingRecords.Run(path: path, offset: start, length: writer.written - start))
        }
        try writer.close()
        bufferedBytes = 0
    }
}
