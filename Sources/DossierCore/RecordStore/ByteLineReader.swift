import Foundation

/// Reads a file of "\n"-terminated lines in 64 KiB chunks, for merging year files and runs
/// without holding them whole.
final class ByteLineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    private var endOfFile = false

    init(path: String) throws(LibraryError) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: "cannot read: \(errnoMessage())") }
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
        let chunk = 1 << 16
        let start = buffer.count
        buffer.reserveCapacity(start + chunk)
        buffer += repeatElement(0, count: chunk)
        let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + start, chunk) }
        buffer.removeLast(chunk - max(got, 0))
        if got <= 0 { endOfFile = true }
    }
}
