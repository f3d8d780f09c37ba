import Crypto
import Foundation
import GRDB

/// Keeps the bytes of every text source the library reads records or profiles from, under
/// `sources/`, named so a person finds a file by its original name: `sources/notes_1a2b3c4d.txt`.
/// Each record names its kept copy, and the problems ledger points into it, so a log line that
/// was not filed stays findable whatever becomes of the original (`--move` removes it only once
/// its copy is durable and checked).
public struct SourceKeeper: Sendable {
    public let layout: LibraryLayout

    public init(layout: LibraryLayout) {
        self.layout = layout
    }

    /// A source copied into staging and hashed, its fsync under way behind the import.
    public struct StagedCopy: Sendable {
        public let stagedPath: String
        public let digest: ContentDigest
        public let size: Int64
        /// Where it will be kept, relative to the library root.
        public let relativePath: String
        /// The copy's fsync, started when it was made: waited for before the copy gets its name.
        let durable: BackgroundFileSync
    }

    /// Copies the source into staging (in the kernel, `sendfile`: no bytes pass through here), hashes the copy (so the digest is of exactly the bytes kept, even if the source
    /// changes meanwhile) and starts its fsync on a thread of its own, so the fsync overlaps the
    /// reading instead of holding the import up (docs/performance.md, "SourceKeeper").
    public func stage(_ source: SourceFile) throws -> StagedCopy {
        let stagedPath = layout.stagingFolder.appendingPathComponent("\(UUID().uuidString).kept").path
        let input = try source.openForReading()
        defer { close(input) }
        let output = try layout.files.createFile(stagedPath, readingBack: true)
        var size: Int64 = 0
        var hasher = SHA256()
        do {
            defer { close(output) }
            while true {
                let copied = sendfile(output, input, nil, 1 << 30)
                if copied < 0 && errno == EINTR { continue }
                if copied < 0 && [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP].contains(errno) {
                    try copyThroughBuffer(from: input, to: output, path: stagedPath)
                    break
                }
                if copied < 0 { throw SourceKeeper.copyFailure(errno, stagedPath: stagedPath) }
                if copied == 0 { break }
            }
            size = try hash(output, into: &hasher, path: stagedPath)
        } catch {
            try? layout.files.remove(stagedPath)
            throw error
        }
        let durable = BackgroundFileSync()
        durable.sync(stagedPath, in: layout.files)
        let digest = ContentDigest(bytes: Array(hasher.finalize()))
        return StagedCopy(stagedPath: stagedPath, digest: digest, size: size,
                          relativePath: SourceKeeper.relativePath(forName: source.fileName, digest: digest),
                          durable: durable)
    }

    /// Why `sendfile` failed, from its errno: the kernel both reads the source and writes the
    /// copy, and a full disk (or quota, or a file system gone read-only) is the library's
    /// failure, which stops the import, not the source's.
    static func copyFailure(_ code: Int32, stagedPath: String) -> any Error {
        switch code {
        case ENOSPC, EDQUOT, EFBIG, EROFS: LibraryError.cannotWrite(path: stagedPath, reason: .errno(code))
        default: SourceReadError.unreadable(errnoMessage(code))
        }
    }

    /// Where the kernel cannot copy between the two files: through a buffer.
    private func copyThroughBuffer(from input: Int32, to output: Int32, path: String) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw SourceReadError.unreadable(errnoMessage()) }
            if count == 0 { return }
            try DurableFileSystem.writeAll(Array(buffer[0..<count]), to: output, path: path)
        }
    }

    /// Hashes a whole open file from its start; returns its size.
    private func hash(_ descriptor: Int32, into hasher: inout SHA256, path: String) throws -> Int64 {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw LibraryError.cannotRead(path: path, reason: .errno()) }
            if count == 0 { return offset }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += Int64(count)
        }
    }

    /// Gives a staged copy its name under `sources/` (where the library keeps these bytes
    /// already, that copy stays and the staged one is dropped). Durable when it returns: the file
    /// and its folder are fsynced. The records were written naming `copy.relativePath`, so a
    /// file of other bytes under that name (a kept copy damaged since) is not a reason to pick
    /// another name: the good bytes take it back, the damaged ones kept under `damaged/`.
    public func keep(_ copy: StagedCopy) throws {
        defer { try? layout.files.remove(copy.stagedPath) }
        try copy.durable.wait()
        let target = try layout.url(forRelativePath: copy.relativePath).path
        switch try layout.files.link(copy.stagedPath, to: target) {
        case .linked:
            return
        case .nameTaken:
            if try holds(copy, at: copy.relativePath) {
                try layout.files.syncFile(target)
                return
            }
            // The kept copy of these bytes, damaged since (its name carries their digest): the
            // source at hand gives them back, and the damaged file is kept under damaged/.
            try Filer(layout: layout, index: nil, dryRun: false).putCopy(of: copy.stagedPath, at: copy.relativePath)
        }
    }

    /// Whether the file at `relativePath` is a regular file holding exactly the copy's bytes.
    public func holds(_ copy: StagedCopy, at relativePath: String) throws -> Bool {
        try Filer(layout: layout, index: nil, dryRun: false)
            .holdsSameBytes(try layout.url(forRelativePath: relativePath).path, digest: copy.digest)
    }

    /// `sources/<name>_<first 8 hex digits of the hash>.<extension>`: the original name made
    /// safe (no leading dot, no control characters, at most 80 bytes), so it sorts and reads
    /// like the original.
    static func relativePath(forName name: String, digest: ContentDigest) -> String {
        let ext = (name as NSString).pathExtension
        // Bytes that were not UTF-8 are named as they are shown, U+FFFD.
        var stem = SourcePath.displayed((name as NSString).deletingPathExtension)
        stem = String(stem.unicodeScalars.map { $0.value < 0x20 || $0 == "/" || $0 == "\u{7F}" ? "_" : Character($0) })
        while stem.hasPrefix(".") { stem.removeFirst() }
        while stem.utf8.count > 80 { stem.removeLast() }
        if stem.isEmpty { stem = "source" }
        let safeExt = ext.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) })
            && ext.utf8.count <= 10 ? ext : ""
        return "sources/\(stem)_\(digest.shortHex)" + (safeExt.isEmpty ? "" : ".\(safeExt)")
    }
}

extension SourceKeeper {
    /// The lines with these numbers of a kept copy, as text where they are UTF-8 (a line in
    /// another encoding, or longer than `maximumLineBytes`, is left out: its number still leads
    /// to it in the kept copy).
    public func lines(_ numbers: Set<Int>, ofKept relativePath: String, maximumLineBytes: Int = 1 << 20) throws -> [Int: String] {
        guard let last = numbers.max() else { return [:] }
        let reader = try ByteLineReader(path: try layout.url(forRelativePath: relativePath).path, in: layout.files,
                                        maximumLineBytes: maximumLineBytes)
        var found: [Int: String] = [:]
        var number = 0
        while number < last, let line = reader.next() {
            number += 1
            guard numbers.contains(number), !reader.skippedLastLine else { continue }
            var bytes = line
            if bytes.last == 0x0D { bytes = bytes.dropLast() }
            if number == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            if let text = String(validating: bytes, as: UTF8.self) { found[number] = text }
        }
        return found
    }
}

// MARK: - KeptSource

/// A source whose bytes the library keeps under `sources/`: once per content.
public struct KeptSource: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "kept_source"

    public var sha256: String
    /// Relative to the library root.
    public var path: String
    public var size: Int64

    public init(sha256: String, path: String, size: Int64) {
        self.sha256 = sha256
        self.path = path
        self.size = size
    }
}

// MARK: - ScratchFolder

/// Where a run keeps the bytes of photos too large to hold in memory while it works on them
/// (`ScratchFile`), and where the image codecs keep such a photo's coefficients and pixels.
///
/// For an import, the library's staging folder: on the library's file system, so that filing
/// links a scratch file to its final name instead of copying it, reached without following links
/// like every other path in the library, and cleared by the next run of whatever a crash left.
/// A dry run writes nothing into the library, so it uses the system's temporary folder.
public struct ScratchFolder: Sendable {
    public let path: String
    /// The library's files, when the folder is its staging folder.
    let files: LibraryFileSystem?

    public static func staging(of layout: LibraryLayout) -> ScratchFolder {
        ScratchFolder(path: layout.stagingFolder.path, files: layout.files)
    }

    /// A folder of the library's own other than staging (the thumbnail cache's), for work done
    /// without the library's lock: an import clears staging when it starts, under the lock.
    public static func folder(_ path: String, of layout: LibraryLayout) -> ScratchFolder {
        ScratchFolder(path: path, files: layout.files)
    }

    public static var temporary: ScratchFolder {
        ScratchFolder(path: URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path, files: nil)
    }

    /// Whether files made here can be linked into the library.
    public var isInLibrary: Bool { files != nil }

    /// Creates a new file for writing and reading back; the caller closes the descriptor.
    func createFile() throws(LibraryError) -> (path: String, descriptor: Int32) {
        let path = "\(self.path)/\(UUID().uuidString).scratch"
        if let files { return (path, try files.createFile(path, readingBack: true)) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: .errno()) }
        return (path, descriptor)
    }

    /// Opens a file made here for reading; the caller closes the descriptor.
    func openForReading(_ path: String) throws(LibraryError) -> Int32 {
        if let files { return try files.openForReading(path) }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: .errno()) }
        return descriptor
    }

    func remove(_ path: String) {
        if let files {
            try? files.remove(path)
        } else {
            unlink(path)
        }
    }

    /// Runs `body` with the folder open: the codecs make their unlinked scratch files in it.
    public func withOpenFolder<Result>(_ body: (Int32) throws -> Result) throws -> Result {
        let descriptor: Int32
        if let files {
            descriptor = try files.openFolder(path)
        } else {
            descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw LibraryError.cannotRead(path: path, reason: .errno()) }
        }
        defer { close(descriptor) }
        return try body(descriptor)
    }
}
