/// Records made ready for the spill, a batch at a time: each one's year file and sort key, and
/// its line within one shared buffer. Made apart from the spill, so that batches are encoded on
/// several cores at once; one buffer per batch rather than an array per line spares a million
/// allocations, and the copies of them between threads, in a big import.
public struct EncodedRecords: Sendable {
    public struct Entry: Sendable {
        let group: RecordGroup
        let key: RecordLine.Key
        let range: Range<Int>
    }

    private(set) var entries: [Entry] = []
    private(set) var bytes: [UInt8] = []

    /// About what a line takes: room reserved for a batch's lines up front.
    static let bytesPerRecord = 256

    /// Room for `capacity` records; `bytes` (emptied) is a buffer to write the lines into, so
    /// that one batch's memory can serve the next.
    public init(capacity: Int = 0, bytes: [UInt8] = []) {
        entries.reserveCapacity(capacity)
        self.bytes = bytes
        self.bytes.removeAll(keepingCapacity: true)
        self.bytes.reserveCapacity(capacity * EncodedRecords.bytesPerRecord)
    }

    /// The lines' buffer, for another batch, once the lines are no longer needed.
    public consuming func releaseBytes() -> [UInt8] {
        bytes
    }

    /// The bytes a record's id is hashed from, gathered again for each record.
    private var idKey: [UInt8] = []
    /// The first year files met in this batch: a batch holds a few subjects' years, and making a
    /// group hashes its subject, which looking one up here does not.
    private var knownGroups: [RecordGroup] = []

    public mutating func append(_ record: Record) {
        let start = bytes.count
        RecordLine.encode(record, into: &bytes)
        entries.append(Entry(group: RecordGroup(subject: record.subject, year: record.date.year),
                             key: RecordLine.Key(date: record.date, line: record.source.line, id: record.id),
                             range: start..<bytes.count))
    }

    /// The line of a transformed draft, as a `Record` of it would be encoded (an entry without a
    /// kind is a memo), without making that `Record`: the draft's strings are read where they are.
    public mutating func append(_ draft: RecordDraft, subject: Subject, keptSource: String? = nil) {
        let kind = draft.kind ?? "memo"
        let id = Record.id(subject: subject, date: draft.date, kind: kind, text: draft.text, measurements: draft.measurements,
                           fields: draft.fields, scratch: &idKey)
        let start = bytes.count
        RecordLine.encode(id: id, subject: subject, date: draft.date, kind: kind, measurements: draft.measurements,
                          text: draft.text, fields: draft.fields, source: draft.source, keptSource: keptSource,
                          into: &bytes)
        entries.append(Entry(group: group(of: subject, year: draft.date.year),
                             key: RecordLine.Key(date: draft.date, line: draft.source.line, id: id),
                             range: start..<bytes.count))
    }

    private mutating func group(of subject: Subject, year: Int) -> RecordGroup {
        for index in knownGroups.indices
            where knownGroups[index].year == year && knownGroups[index].subject == subject {
            return knownGroups[index]
        }
        let group = RecordGroup(subject: subject, year: year)
        if knownGroups.count < 16 { knownGroups.append(group) }
        return group
    }

    /// Calls `body` with each entry and its line, lent from the shared buffer (valid only inside
    /// `body`): a slice per line would retain and release the buffer for every record.
    func forEachLine(_ body: (Entry, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try bytes.withUnsafeBufferPointer { all in
            for entry in entries { try body(entry, UnsafeBufferPointer(rebasing: all[entry.range])) }
        }
    }
}
