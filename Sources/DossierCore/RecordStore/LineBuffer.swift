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
