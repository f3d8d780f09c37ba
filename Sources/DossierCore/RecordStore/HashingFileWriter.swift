import Crypto
import Foundation

/// Writes a new file through a buffer of `bufferSize` bytes, hashing what it writes. Flushed
/// before a line would overflow it, so the buffer never grows (an import keeps 64 of these open;
/// doubled buffers were 4 MiB more of its peak memory).
final class HashingFileWriter {
    static let bufferSize = 1 << 16

    private let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var hasher = SHA256()
    private var closed = false

    init(path: String) throws(LibraryError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: errnoMessage()) }
        buffer.reserveCapacity(HashingFileWriter.bufferSize)
    }

    /// Writes a line read without its "\n", and the "\n".
    func writeLine(_ line: ArraySlice<UInt8>) throws(LibraryError) {
        try makeRoom(for: line.count + 1)
        buffer += line
        buffer.append(0x0A)
    }

    /// Writes bytes as they are (an encoded line ends in its "\n" already).
    func write(_ bytes: ArraySlice<UInt8>) throws(LibraryError) {
        try makeRoom(for: bytes.count)
        buffer += bytes
    }

    private func makeRoom(for count: Int) throws(LibraryError) {
        if buffer.count + count > HashingFileWriter.bufferSize { try flush() }
    }

    /// Flushes, fsyncs and closes; returns the digest of everything written.
    /// Without `sync`, the caller fsyncs the file itself before it is given its final name
    /// (`DurableFileSystem.syncFiles`, many at once).
    func finish(sync: Bool = true) throws(LibraryError) -> ContentDigest {
        try flush()
        if sync && fsync(descriptor) != 0 { throw .cannotWrite(path: path, reason: errnoMessage()) }
        close(descriptor)
        closed = true
        return ContentDigest(bytes: Array(hasher.finalize()))
    }

    func abandon() {
        if !closed { close(descriptor) }
        closed = true
        unlink(path)
    }

    private func flush() throws(LibraryError) {
        hasher.update(data: buffer)
        try DurableFileSystem.writeAll(buffer, to: descriptor, path: path)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { if !closed { close(descriptor) } }
}
