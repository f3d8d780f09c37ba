import Foundation

/// Reads a file (or a byte range of one) of "\n"-terminated lines in 64 KiB chunks, for merging
/// year files and runs without holding them whole.
final class ByteLineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    private var endOfFile = false
    /// Where the next read starts, and how many bytes are left to read.
    private var fileOffset: Int
    private var remaining: Int

    init(path: String, in files: LibraryFileSystem, offset: Int = 0, length: Int = .max) throws(LibraryError) {
        descriptor = try files.openForReading(path)
        fileOffset = offset
        remaining = length
    }

    deinit { close(descriptor) }

    /// The next line without its "\n", or nil at the end.
    func next() -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A) {
                let line = buffer[position..<newline]
                position = newline + 1
                return line
            }
            if endOfFile {
                guard position < buffer.count else { return nil }
                let line = buffer[position...]
                position = buffer.count
                return line
            }
            refill()
        }
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
