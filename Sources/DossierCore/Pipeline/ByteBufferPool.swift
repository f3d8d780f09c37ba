import Synchronization

/// Byte buffers given back once used, for the next batch: a batch's encoded lines take about a
/// megabyte, and a fresh megabyte for every batch means the kernel handing out (and zeroing)
/// new pages all through a big import. At most `limit` buffers are kept, so the pool never holds
/// more than the batches under way would. A small gain (docs/performance.md, "ByteBufferPool").
final class ByteBufferPool: Sendable {
    private let buffers = Mutex<[[UInt8]]>([])
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// A buffer with room for `capacity` bytes, used before if one is free: it still holds what
    /// it held, to be written over (`EncodedRecords` writes lines straight into a buffer's bytes,
    /// which must be there; emptying it would have them made again, a megabyte of zeroes a batch).
    func take(capacity: Int) -> [UInt8] {
        var buffer = buffers.withLock { $0.popLast() } ?? []
        buffer.reserveCapacity(capacity)
        return buffer
    }

    /// Keeps `buffer`, contents and all, for a later `take`; past `limit` buffers, it is freed.
    func give(_ buffer: consuming [UInt8]) {
        let buffer = buffer
        guard buffer.capacity > 0 else { return }
        buffers.withLock { if $0.count < limit { $0.append(buffer) } }
    }
}
