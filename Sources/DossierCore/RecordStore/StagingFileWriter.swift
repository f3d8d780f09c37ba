import Crypto
import Foundation

/// Writes a new file in staging (one that must not exist yet) through a buffer of `bufferSize`
/// bytes: a year file on its way into place, hashed as it is written, or a scratch run file,
/// which needs no hash. Flushed before a line would overflow the buffer, so the buffer never
/// grows (an import keeps many of these open, and doubled buffers would add to its peak memory).
final class StagingFileWriter {
    static let bufferSize = 1 << 16

    private let path: String
    private let descriptor: Int32
    // One thread at a time, on every record's way: no run-time exclusivity checks (docs/performance.md).
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    /// Nil for scratch files: hashing them would only cost time.
    @exclusivity(unchecked) private var hasher: SHA256?
    @exclusivity(unchecked) private var closed = false
    /// Bytes written so far: the offset of the next one in the file.
    @exclusivity(unchecked) private(set) var written = 0

    private let files: LibraryFileSystem

    init(path: String, in files: LibraryFileSystem, hashing: Bool = true) throws(LibraryError) {
        self.path = path
        self.files = files
        descriptor = try files.createFile(path)
        hasher = hashing ? SHA256() : nil
        buffer.reserveCapacity(StagingFileWriter.bufferSize)
    }

    /// Writes a line read without its "\n", and the "\n".
    func writeLine(_ line: ArraySlice<UInt8>) throws(LibraryError) {
        try makeRoom(for: line.count + 1)
        buffer += line
        buffer.append(0x0A)
        written += line.count + 1
    }

    /// Writes bytes as they are (an encoded line ends in its "\n" already).
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(LibraryError) {
        try makeRoom(for: bytes.count)
        buffer += bytes
        written += bytes.count
    }

    /// Flushes, fsyncs and closes a hashed file; returns the digest of everything written.
    /// Without `sync`, the caller fsyncs the file itself before it is given its final name
    /// (`DurableFileSystem.syncFiles`, many at once).
    func finish(sync: Bool = true) throws(LibraryError) -> ContentDigest {
        precondition(hasher != nil, "finish is for hashed files; scratch files are closed")
        try close(sync: sync)
        return ContentDigest(bytes: Array(hasher!.finalize()))
    }

    /// Flushes and closes, without an fsync: for scratch files a crash may lose.
    func close() throws(LibraryError) {
        try close(sync: false)
    }

    func abandon() {
        if !closed { Glibc.close(descriptor) }
        closed = true
        try? files.remove(path)
    }

    private func close(sync: Bool) throws(LibraryError) {
        try flush()
        if sync && fsync(descriptor) != 0 { throw .cannotWrite(path: path, reason: .errno()) }
        closed = true
        if Glibc.close(descriptor) != 0 { throw .cannotWrite(path: path, reason: .errno()) }
    }

    private func makeRoom(for count: Int) throws(LibraryError) {
        if buffer.count + count > StagingFileWriter.bufferSize { try flush() }
    }

    private func flush() throws(LibraryError) {
        hasher?.update(data: buffer)
        try DurableFileSystem.writeAll(buffer, to: descriptor, path: path)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { if !closed { Glibc.close(descriptor) } }
}
