/// Records made ready for the spill, a batch at a time: each one's year file and sort key, and
/// its line within one shared buffer. Made apart from the spill, so that batches are encoded on
/// several cores at once; one buffer per batch rather than an array per line spares a million
/// allocations, and the copies of them between threads, in a big import.
public struct EncodedRecords: Sendable {
    public struct Entry: Sendable {
        /// Its year file, in `groups`: an index, so that the spill looks each of the batch's
        /// few year files up once, not each record's.
        let groupIndex: Int
        let key: RecordLine.Key
        let range: Range<Int>
    }

    private(set) var entries: [Entry] = []
    /// The year files of the batch's records (the first 16 met once each).
    private(set) var groups: [RecordGroup] = []
    /// The lines, one after another, in its first `used` bytes; the rest is room for the next
    /// lines, which are written straight into it (no scratch room to allocate, fill and copy
    /// from for each line), the id's key gathered there first. Its bytes past `used` are
    /// whatever was there: never read (docs/performance.md, "EncodedRecords").
    private var buffer: [UInt8] = []
    private var used = 0

    /// The lines, one after another.
    var bytes: ArraySlice<UInt8> { buffer[..<used] }

    /// About what a line takes: room reserved for a batch's lines up front.
    static let bytesPerRecord = 256

    /// Room for `capacity` records; `bytes` is a buffer (of any contents) to write the lines
    /// over, so that one batch's memory can serve the next.
    public init(capacity: Int = 0, bytes: [UInt8] = []) {
        entries.reserveCapacity(capacity)
        buffer = bytes
        makeRoom(capacity * EncodedRecords.bytesPerRecord)
    }

    /// The lines' buffer, for another batch, once the lines are no longer needed: exactly the
    /// lines, with the memory of the room that was left after them.
    public consuming func releaseBytes() -> [UInt8] {
        buffer.removeLast(buffer.count - used)
        return buffer
    }

    /// At least `count` bytes of room after the lines. The buffer's bytes must be initialized
    /// to be written through a buffer pointer: new room is zeroes, made once for a buffer that
    /// the pool hands from batch to batch, and 64 KiB at a time (the array's capacity doubles
    /// as ever, but only the room made is touched, so only it counts in the import's memory).
    private mutating func makeRoom(_ count: Int) {
        let missing = used + count - buffer.count
        guard missing > 0 else { return }
        buffer.append(contentsOf: repeatElement(0, count: max(missing, 1 << 16)))
    }

    public mutating func append(_ record: Record) {
        let start = used
        makeRoom(RecordLine.longestLine(subject: record.subject, kind: record.kind, measurements: record.measurements,
                                        text: record.text, fields: record.fields, source: record.source,
                                        keptSource: record.source.kept))
        used += buffer.withUnsafeMutableBufferPointer { all in
            var writer = ByteWriter(UnsafeMutableBufferPointer(rebasing: all[start...]))
            RecordLine.write(id: record.id, subject: record.subject, date: record.date, kind: record.kind,
                             measurements: record.measurements, text: record.text, fields: record.fields,
                             source: record.source, keptSource: record.source.kept, to: &writer)
            return writer.count
        }
        entries.append(Entry(groupIndex: groupIndex(of: record.subject, year: record.date.year),
                             key: RecordLine.Key(date: record.date, line: record.source.line, id: record.id),
                             range: start..<used))
    }

    /// The line of a transformed draft, as a `Record` of it would be encoded (an entry without a
    /// kind is a memo), without making that `Record`: the draft's strings are read where they are.
    public mutating func append(_ draft: RecordDraft, subject: Subject, keptSource: String? = nil) {
        let kind = draft.kind ?? "memo"
        let start = used
        makeRoom(max(RecordLine.longestLine(subject: subject, kind: kind, measurements: draft.measurements,
                                            text: draft.text, fields: draft.fields, source: draft.source,
                                            keptSource: keptSource),
                     Record.longestIDKey(subject: subject, kind: kind, text: draft.text, measurements: draft.measurements,
                                         fields: draft.fields)))
        let (id, count) = buffer.withUnsafeMutableBufferPointer { all in
            let room = UnsafeMutableBufferPointer(rebasing: all[start...])
            // The key the id is hashed from is gathered where the line then goes, over it.
            let id = Record.id(subject: subject, date: draft.date, kind: kind, text: draft.text,
                               measurements: draft.measurements, fields: draft.fields, in: room)
            var writer = ByteWriter(room)
            RecordLine.write(id: id, subject: subject, date: draft.date, kind: kind, measurements: draft.measurements,
                             text: draft.text, fields: draft.fields, source: draft.source, keptSource: keptSource,
                             to: &writer)
            return (id, writer.count)
        }
        used += count
        entries.append(Entry(groupIndex: groupIndex(of: subject, year: draft.date.year),
                             key: RecordLine.Key(date: draft.date, line: draft.source.line, id: id),
                             range: start..<used))
    }

    /// Where the year file of `subject` and `year` is in `groups`, added if it is not among the
    /// first 16: a batch holds a few subjects' years, and making a group hashes its subject,
    /// which looking one up here does not. (Past 16, a group is added again for each record,
    /// rather than searched for along a list that could grow as long as the batch.)
    private mutating func groupIndex(of subject: Subject, year: Int) -> Int {
        for index in 0..<min(groups.count, 16) where groups[index].year == year && groups[index].subject == subject {
            return index
        }
        groups.append(RecordGroup(subject: subject, year: year))
        return groups.count - 1
    }

    /// Calls `body` with each entry and its line, lent from the shared buffer (valid only inside
    /// `body`): a slice per line would retain and release the buffer for every record.
    func forEachLine(_ body: (Entry, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try buffer.withUnsafeBufferPointer { all in
            for entry in entries { try body(entry, UnsafeBufferPointer(rebasing: all[entry.range])) }
        }
    }
}

// MARK: - ByteWriter

/// Writes bytes one after another into memory reserved up front for all of them: a record's line
/// is some two dozen pieces, and appending each to an array checked the array's uniqueness and
/// capacity, and maybe grew it, two dozen times a line, a million lines over. Whoever makes a
/// writer reserves at least what will be written (a bound worked out first); a write past it
/// stops the program rather than write over memory that is not the writer's.
struct ByteWriter {
    private let start: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    init(_ room: UnsafeMutableBufferPointer<UInt8>) {
        start = room.baseAddress!
        capacity = room.count
    }

    /// What has been written so far.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    mutating func write(_ byte: UInt8) {
        precondition(count < capacity, "a write past the room reserved")
        start[count] = byte
        count += 1
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= capacity - count, "a write past the room reserved")
        guard let source = bytes.baseAddress else { return }
        (start + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// A string's UTF-8 as it is (no escaping).
    mutating func writeUTF8(_ text: String) {
        // Native strings (all of ours) are contiguous; others are copied once to be, out of line
        // (see `RecordLine.writeCopiedContents`).
        if text.utf8.withContiguousStorageIfAvailable({ write($0) }) != nil { return }
        writeCopied(text)
    }

    @inline(never)
    private mutating func writeCopied(_ text: String) {
        Array(text.utf8).withUnsafeBufferPointer { write($0) }
    }

    mutating func write(_ literal: StaticString) {
        literal.withUTF8Buffer { write($0) }
    }

    /// Writes a two-digit number, 00...99.
    mutating func writeTwoDigits(_ value: Int) {
        precondition(count + 2 <= capacity, "a write past the room reserved")
        start[count] = UInt8(truncatingIfNeeded: 48 + value / 10)
        start[count + 1] = UInt8(truncatingIfNeeded: 48 + value % 10)
        count += 2
    }

    /// Runs `body` with a writer over `bound` bytes of scratch room (on the stack when small),
    /// then appends what it wrote to `out` at once.
    static func append(to out: inout [UInt8], bound: Int, _ body: (inout ByteWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { room in
            var writer = ByteWriter(room)
            body(&writer)
            out.append(contentsOf: writer.written)
        }
    }
}
