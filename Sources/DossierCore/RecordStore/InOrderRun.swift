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
