import Foundation

/// Appends lines to a new scratch file in staging through a 64 KiB buffer, flushed before a line
/// would overflow it (so it never grows).
final class RunFileWriter {
    private let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var closed = false
    /// Bytes handed to `write` so far: the offset of the next one in the file.
    private(set) var written = 0

    init(path: String) throws(LibraryError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: errnoMessage()) }
        buffer.reserveCapacity(HashingFileWriter.bufferSize)
    }

    func write(_ bytes: ArraySlice<UInt8>) throws(LibraryError) {
        if buffer.count + bytes.count > HashingFileWriter.bufferSize { try flush() }
        buffer += bytes
        written += bytes.count
    }

    func close() throws(LibraryError) {
        try flush()
        closed = true
        if Glibc.close(descriptor) != 0 { throw .cannotWrite(path: path, reason: errnoMessage()) }
    }

    private func flush() throws(LibraryError) {
        try DurableFileSystem.writeAll(buffer, to: descriptor, path: path)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        if !closed { Glibc.close(descriptor) }
    }
}
