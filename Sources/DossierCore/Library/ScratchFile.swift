import Crypto
import Foundation

/// A file of the run's own that holds bytes too large to keep in memory: a large photo's copy of
/// its source (taken once, so later changes to the source cannot mix into what is filed), or the
/// photo turned upright. Its digest is of the bytes as they are in the file, read back after
/// writing. The file goes with the last reference to it; filing links it to its final name first.
public final class ScratchFile: Sendable {
    public let path: String
    public let size: Int64
    public let digest: ContentDigest
    public let folder: ScratchFolder

    private init(path: String, size: Int64, digest: ContentDigest, folder: ScratchFolder) {
        self.path = path
        self.size = size
        self.digest = digest
        self.folder = folder
    }

    deinit {
        folder.remove(path)
    }

    /// A new file in `folder` that `write` fills through the descriptor it is handed (open for
    /// reading and writing); then read back and hashed.
    public static func written(in folder: ScratchFolder, by write: (Int32) throws -> Void) throws -> ScratchFile {
        let (path, descriptor) = try folder.createFile()
        defer { close(descriptor) }
        do {
            try write(descriptor)
            let (size, digest) = try ScratchFile.hash(descriptor)
            return ScratchFile(path: path, size: size, digest: digest, folder: folder)
        } catch {
            folder.remove(path)
            throw error
        }
    }

    /// A file holding `bytes`.
    public static func holding(_ bytes: [UInt8], in folder: ScratchFolder) throws -> ScratchFile {
        try written(in: folder) { descriptor in try DurableFileSystem.writeAll(bytes, to: descriptor, path: folder.path) }
    }

    /// A copy of a source's bytes, hashed as it is copied: the source is read once, and only the
    /// file that was found (`SourceFile.openForReading`).
    public static func copy(of file: SourceFile, in folder: ScratchFolder) throws -> ScratchFile {
        let source = try file.openForReading()
        defer { close(source) }
        return try copy(from: source, in: folder)
    }

    /// A copy of another scratch file (one made outside the library, copied into its staging).
    static func copy(ofScratch scratchPath: String, in folder: ScratchFolder) throws -> ScratchFile {
        let source = SourcePath.openForReading(scratchPath)
        guard source >= 0 else { throw SourceReadError.unreadable(errnoMessage()) }
        defer { close(source) }
        return try copy(from: source, in: folder)
    }

    private static func copy(from source: Int32, in folder: ScratchFolder) throws -> ScratchFile {
        let (path, descriptor) = try folder.createFile()
        defer { close(descriptor) }
        do {
            var hasher = SHA256()
            let size = try forEachChunk(of: source) { chunk in
                hasher.update(data: chunk)
                try DurableFileSystem.writeAll(Array(chunk), to: descriptor, path: path)
            }
            return ScratchFile(path: path, size: size, digest: ContentDigest(bytes: Array(hasher.finalize())),
                               folder: folder)
        } catch {
            folder.remove(path)
            throw error
        }
    }

    /// A new file: this one with the bytes in `range` replaced by `replacement` (a metadata block
    /// rewritten in place, every other byte as it was).
    public func replacing(_ range: Range<Int64>, with replacement: [UInt8]) throws -> ScratchFile {
        try withOpenFile { source in
            try ScratchFile.written(in: folder) { descriptor in
                try ScratchFile.copy(source, range: 0..<range.lowerBound, to: descriptor, path: path)
                try DurableFileSystem.writeAll(replacement, to: descriptor, path: path)
                try ScratchFile.copy(source, range: range.upperBound..<size, to: descriptor, path: path)
            }
        }
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        try withOpenFile { descriptor in
            var bytes = [UInt8](repeating: 0, count: count)
            let got = try ScratchFile.read(descriptor, into: &bytes, at: offset)
            return Array(bytes[..<got])
        }
    }

    /// Runs `body` with the file open for reading.
    public func withOpenFile<Result>(_ body: (Int32) throws -> Result) throws -> Result {
        let descriptor = try folder.openForReading(path)
        defer { close(descriptor) }
        return try body(descriptor)
    }

    // MARK: Reading and copying

    static let chunkSize = 1 << 20

    /// The size and digest of an open file's bytes, read from its start a chunk at a time.
    static func hash(_ descriptor: Int32) throws -> (Int64, ContentDigest) {
        var hasher = SHA256()
        let size = try forEachChunk(of: descriptor) { hasher.update(data: $0) }
        return (size, ContentDigest(bytes: Array(hasher.finalize())))
    }

    /// Hands `body` an open file's bytes in `range` (to the end of the file at most), a chunk at a
    /// time, in order; returns how many there were.
    @discardableResult
    private static func forEachChunk(of descriptor: Int32, in range: Range<Int64> = 0..<Int64.max,
                                     _ body: (ArraySlice<UInt8>) throws -> Void) throws -> Int64 {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var offset = range.lowerBound
        while offset < range.upperBound {
            let got = try read(descriptor, into: &chunk, at: offset)
            if got == 0 { break }
            let wanted = Int(min(Int64(got), range.upperBound - offset))
            try body(chunk[..<wanted])
            offset += Int64(wanted)
        }
        return offset - range.lowerBound
    }

    private static func read(_ descriptor: Int32, into buffer: inout [UInt8], at offset: Int64) throws -> Int {
        while true {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if got >= 0 { return got }
            if errno != EINTR { throw SourceReadError.unreadable(errnoMessage()) }
        }
    }

    /// Copies an open file's bytes, from its start to its end, to `descriptor`; returns how many.
    static func copyAll(_ source: Int32, to descriptor: Int32, path: String) throws -> Int64 {
        try forEachChunk(of: source) { try DurableFileSystem.writeAll(Array($0), to: descriptor, path: path) }
    }

    private static func copy(_ source: Int32, range: Range<Int64>, to descriptor: Int32, path: String) throws {
        let copied = try forEachChunk(of: source, in: range) { try DurableFileSystem.writeAll(Array($0), to: descriptor, path: path) }
        guard copied == range.count else { throw SourceReadError.unreadable("\(path) ended early") }
    }
}
