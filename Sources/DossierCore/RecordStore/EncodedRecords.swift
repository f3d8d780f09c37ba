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

    public init(capacity: Int = 0) {
        entries.reserveCapacity(capacity)
        bytes.reserveCapacity(capacity * 256)
    }

    public mutating func append(_ record: Record) {
        let start = bytes.count
        RecordLine.encode(record, into: &bytes)
        entries.append(Entry(group: RecordGroup(subject: record.subject, year: record.date.year), key: RecordLine.Key(record),
                             range: start..<bytes.count))
    }

    func line(of entry: Entry) -> ArraySlice<UInt8> { bytes[entry.range] }
}
