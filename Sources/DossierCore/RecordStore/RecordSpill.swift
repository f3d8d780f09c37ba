import Foundation
import Crypto
import Synchronization

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

// MARK: - InOrderRun

/// The records of one year file for as long as they come in date order, as they do from most
/// logs and exports: written straight to one file in staging as each day ends, that day's
/// entries sorted (a log need not keep the times of one day in order) and each kept once.
/// With no year file yet, the commit takes that file as the year file as it is: no run files to
/// write and read back, no merge.
final class InOrderRun {
    let path: String
    private let writer: StagingFileWriter
    // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
    /// The records not written yet: all of one day, and all after the last one written.
    @exclusivity(unchecked) private var held = LineBuffer()
    @exclusivity(unchecked) private var heldDay: UInt64 = 0
    var heldBytes: Int { held.footprint }
    @exclusivity(unchecked) private var lastWritten: RecordLine.Key?
    /// A record's id holds its date, so copies of one record share a day: the ids of the day
    /// being written are all it takes to keep each record once.
    @exclusivity(unchecked) private var writtenDay: UInt64 = .max
    @exclusivity(unchecked) private var idsOfDay = Set<UInt64>()
    @exclusivity(unchecked) private var lines = 0
    /// When the spill last handed it a record, on the spill's own clock.
    @exclusivity(unchecked) var lastUse = 0

    init(path: String, in files: LibraryFileSystem) throws(LibraryError) {
        self.path = path
        writer = try StagingFileWriter(path: path, in: files)
    }

    /// Whether a record with this key keeps the file in order: not before what is written, nor
    /// on a day before the one held.
    func accepts(_ key: RecordLine.Key) -> Bool {
        if let lastWritten, !(lastWritten < key) { return false }
        return held.isEmpty || key.day >= heldDay
    }

    /// Takes a record `accepts` allowed; a new day writes out the one held.
    func add(_ key: RecordLine.Key, _ line: UnsafeBufferPointer<UInt8>) throws(LibraryError) {
        if !held.isEmpty && key.day != heldDay { try writeHeld() }
        heldDay = key.day
        held.append(key, line)
    }

    /// Writes the held records, sorted, so their memory is free again. Later records of the
    /// same day must then sort after them, or the group leaves the in-order path.
    func writeHeld() throws(LibraryError) {
        guard !held.isEmpty else { return }
        try held.drainSorted { (key, line) throws(LibraryError) in
            lastWritten = key
            if key.day != writtenDay {
                writtenDay = key.day
                idsOfDay.removeAll(keepingCapacity: true)
            }
            if key.id != 0 && !idsOfDay.insert(key.id).inserted { return }
            try writer.write(line)
            lines += 1
        }
    }

    /// Writes what is held and closes: a sorted run of distinct records that is a whole year
    /// file's worth. Not fsynced: the spill has that done behind the writing, or many at once.
    func finish() throws(LibraryError) -> PendingRecords.Run {
        try writeHeld()
        let digest = try writer.finish(sync: false)
        return PendingRecords.Run(path: path, offset: 0, length: writer.written,
                                  whole: PendingRecords.WholeFile(sha256: digest, lines: lines))
    }

    func abandon() {
        writer.abandon()
    }
}

// MARK: - LineBuffer

/// Encoded lines waiting to be written, kept in one buffer with their sort keys: sorted and
/// written out in key order, then emptied for the next lines with its memory kept.
struct LineBuffer {
    private var bytes: [UInt8] = []
    private var keys: [(key: RecordLine.Key, range: Range<Int>)] = []

    var isEmpty: Bool { keys.isEmpty }
    /// What the buffer holds, counting a little for each line's key.
    var footprint: Int { bytes.count + keys.count * LineBuffer.keyFootprint }

    /// What a line of `count` bytes adds to `footprint`.
    static func footprint(ofLine count: Int) -> Int { count + keyFootprint }

    private static let keyFootprint = 32

    mutating func append(_ key: RecordLine.Key, _ line: UnsafeBufferPointer<UInt8>) {
        let start = bytes.count
        bytes.append(contentsOf: line)
        keys.append((key, start..<bytes.count))
    }

    /// Calls `body` with each line in key order, then empties the buffer. The lines are lent:
    /// valid only inside `body`.
    mutating func drainSorted<Failure: Error>(
        _ body: (RecordLine.Key, UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        keys.sort { $0.key < $1.key }
        try bytes.withUnsafeBufferPointer { (all) throws(Failure) in
            for entry in keys { try body(entry.key, UnsafeBufferPointer(rebasing: all[entry.range])) }
        }
        keys.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }
}

// MARK: - StagingFileWriter

/// Writes a new file in staging (one that must not exist yet) through a buffer of `bufferSize`
/// bytes: a year file on its way into place, hashed as it is written, or a scratch run file,
/// which needs no hash. Flushed before a line would overflow the buffer, so the buffer never
/// grows (an import keeps many of these open, and doubled buffers would add to its peak memory).
final class StagingFileWriter {
    static let bufferSize = 1 << 16

    private let path: String
    private let descriptor: Int32
    // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    /// Nil for scratch files: hashing them would only cost time.
    @exclusivity(unchecked) private var hasher: SHA256?
    @exclusivity(unchecked) private var closed = false
    /// Bytes written so far: the offset of the next one in the file.
    @exclusivity(unchecked) private(set) var written = 0

    private let files: LibraryFileSystem

    init(path: String, in files: LibraryFileSystem, hashing: Bool = true) throws(LibraryError) {
        self.path = path
        self.files = files
        descriptor = try files.createFile(path)
        hasher = hashing ? SHA256() : nil
        buffer.reserveCapacity(StagingFileWriter.bufferSize)
    }

    /// Writes a line read without its "\n", and the "\n".
    func writeLine(_ line: ArraySlice<UInt8>) throws(LibraryError) {
        try makeRoom(for: line.count + 1)
        buffer += line
        buffer.append(0x0A)
        written += line.count + 1
    }

    /// Writes bytes as they are (an encoded line ends in its "\n" already).
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(LibraryError) {
        try makeRoom(for: bytes.count)
        buffer += bytes
        written += bytes.count
    }

    /// Flushes, fsyncs and closes a hashed file; returns the digest of everything written.
    /// Without `sync`, the caller fsyncs the file itself before it is given its final name
    /// (`DurableFileSystem.syncFiles`, many at once).
    func finish(sync: Bool = true) throws(LibraryError) -> ContentDigest {
        precondition(hasher != nil, "finish is for hashed files; scratch files are closed")
        try close(sync: sync)
        return ContentDigest(bytes: Array(hasher!.finalize()))
    }

    /// Flushes and closes, without an fsync: for scratch files a crash may lose.
    func close() throws(LibraryError) {
        try close(sync: false)
    }

    func abandon() {
        if !closed { Glibc.close(descriptor) }
        closed = true
        try? files.remove(path)
    }

    private func close(sync: Bool) throws(LibraryError) {
        try flush()
        if sync && fsync(descriptor) != 0 { throw .cannotWrite(path: path, reason: .errno()) }
        closed = true
        if Glibc.close(descriptor) != 0 { throw .cannotWrite(path: path, reason: .errno()) }
    }

    private func makeRoom(for count: Int) throws(LibraryError) {
        if buffer.count + count > StagingFileWriter.bufferSize { try flush() }
    }

    private func flush() throws(LibraryError) {
        hasher?.update(data: buffer)
        try DurableFileSystem.writeAll(buffer, to: descriptor, path: path)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { if !closed { Glibc.close(descriptor) } }
}

// MARK: - BackgroundFileSync

/// Fsyncs closed files on a thread of its own while the caller writes on. A big import closes
/// hundreds of year files as it goes; each fsync waits for the storage, and waiting on the
/// thread that writes held the whole pipeline up behind it (docs/performance.md says by how much).
final class BackgroundFileSync: Sendable {
    private let lane = BlockingWork.SerialLane("dossier.file-sync")
    private let failure = Mutex<LibraryError?>(nil)

    /// Starts fsyncing a file that is written and closed.
    func sync(_ path: String, in files: LibraryFileSystem) {
        sync { () throws(LibraryError) in try files.syncFile(path) }
    }

    /// Starts one fsync (or, in tests, what stands for one).
    func sync(_ work: @escaping @Sendable () throws(LibraryError) -> Void) {
        lane.add { [self] in
            do throws(LibraryError) {
                try work()
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
    }

    /// Waits until every file asked for is durable; throws the first failure.
    func wait() throws(LibraryError) {
        lane.drain()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
