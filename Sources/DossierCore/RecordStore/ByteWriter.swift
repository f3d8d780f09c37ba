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
