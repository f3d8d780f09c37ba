import Foundation

/// Reads a file (or a byte range of one) of "\n"-terminated lines in 64 KiB chunks, for merging
/// year files and runs without holding them whole.
final class ByteLineReader {
    private let descriptor: Int32
    // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var position = 0
    /// How far past `position` the buffer is known to hold no "\n": a long line is searched
    /// once, not again from its start after every chunk (which made a huge line quadratic).
    @exclusivity(unchecked) private var searched = 0
    @exclusivity(unchecked) private var endOfFile = false
    /// Where the next read starts, and how many bytes are left to read.
    @exclusivity(unchecked) private var fileOffset: Int
    @exclusivity(unchecked) private var remaining: Int
    /// Lines longer than this are skipped as they are read, in bounded memory.
    private let maximumLineBytes: Int
    /// Whether the line `next()` returned last was longer than `maximumLineBytes`: it came back
    /// empty.
    @exclusivity(unchecked) private(set) var skippedLastLine = false

    init(path: String, in files: LibraryFileSystem, offset: Int = 0, length: Int = .max,
         maximumLineBytes: Int = .max) throws(LibraryError) {
        descriptor = try files.openForReading(path)
        fileOffset = offset
        remaining = length
        self.maximumLineBytes = maximumLineBytes
    }

    deinit { close(descriptor) }

    /// The next line without its "\n", or nil at the end.
    func next() -> ArraySlice<UInt8>? {
        skippedLastLine = false
        var skipped = 0
        while true {
            if let newline = buffer[(position + searched)...].firstIndex(of: 0x0A) {
                let line = buffer[position..<newline]
                position = newline + 1
                searched = 0
                return skipped + line.count > maximumLineBytes ? skip() : line
            }
            if endOfFile {
                guard position < buffer.count else { return skipped > 0 ? skip() : nil }
                let line = buffer[position...]
                position = buffer.count
                searched = 0
                return skipped + line.count > maximumLineBytes ? skip() : line
            }
            if buffer.count - position > maximumLineBytes {
                // Too long: drop what is held of it and go on looking for its end.
                skipped += buffer.count - position
                position = buffer.count
            }
            searched = buffer.count - position
            refill()
        }
    }

    private func skip() -> ArraySlice<UInt8> {
        skippedLastLine = true
        return []
    }

    private func refill() {
        if position > 0 {
            buffer.removeSubrange(0..<position)
            position = 0
        }
        let chunk = min(1 << 16, remaining)
        guard chunk > 0 else {
            endOfFile = true
            return
        }
        let start = buffer.count
        buffer.reserveCapacity(start + chunk)
        buffer += repeatElement(0, count: chunk)
        let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + start, chunk, off_t(fileOffset)) }
        buffer.removeLast(chunk - max(got, 0))
        if got <= 0 {
            endOfFile = true
        } else {
            fileOffset += got
            remaining -= got
        }
    }
}
