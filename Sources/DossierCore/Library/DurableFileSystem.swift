import Foundation

/// The few file-system operations filing needs, each done so that a crash at any moment leaves
/// either nothing or a whole, durable file: data is fsynced before it gets its name, and the
/// folder is fsynced after, so the name itself survives a power cut.
enum DurableFileSystem {
    /// Writes `bytes` to a new file (which must not exist) and fsyncs it (unless told not to,
    /// for scratch files a crash may lose).
    static func writeNewFile(_ bytes: [UInt8], at path: String, sync: Bool = true) throws(LibraryError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: errnoMessage()) }
        var failure: LibraryError?
        do throws(LibraryError) {
            try writeAll(bytes, to: descriptor, path: path)
            if sync, fsync(descriptor) != 0 { throw LibraryError.cannotWrite(path: path, reason: errnoMessage()) }
        } catch {
            failure = error
        }
        if close(descriptor) != 0, failure == nil { failure = .cannotWrite(path: path, reason: errnoMessage()) }
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Writes every byte, retrying short and interrupted writes.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(LibraryError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .cannotWrite(path: path, reason: errnoMessage()) }
            offset += written
        }
    }

    /// Creates a folder and any missing parents up to `root`, fsyncing each parent that gained an
    /// entry so the new folders survive a crash.
    static func createFolders(_ path: String, under root: String) throws(LibraryError) {
        var missing: [String] = []
        var current = path
        while current.count > root.count, !isFolder(current) {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() {
            if mkdir(folder, 0o755) != 0 && errno != EEXIST {
                throw .cannotCreate(path: folder, reason: errnoMessage())
            }
            try syncFolder((folder as NSString).deletingLastPathComponent)
        }
    }

    enum LinkResult {
        case linked
        case nameTaken
    }

    /// Gives a durable staged file its final name without ever replacing an existing file:
    /// `link` fails if the name exists, where `rename` would overwrite.
    static func link(_ stagedPath: String, to finalPath: String) throws(LibraryError) -> LinkResult {
        if Glibc.link(stagedPath, finalPath) != 0 {
            if errno == EEXIST { return .nameTaken }
            throw .cannotWrite(path: finalPath, reason: errnoMessage())
        }
        try syncFolder((finalPath as NSString).deletingLastPathComponent)
        return .linked
    }

    /// Replaces a file (or creates it) so that readers see the old or the new contents whole,
    /// never a mix: staged, fsynced, renamed into place, folder fsynced. For files that are
    /// meant to change (a year of records, a profile); photos are never replaced.
    static func replaceFile(at path: String, with bytes: [UInt8], stagingFolder: String) throws(LibraryError) {
        let staged = "\(stagingFolder)/\(UUID().uuidString).part"
        try writeNewFile(bytes, at: staged)
        try commitStagedFile(staged, replacing: path)
    }

    /// Renames a durable staged file over `path` and fsyncs the folder.
    static func commitStagedFile(_ staged: String, replacing path: String) throws(LibraryError) {
        try renameStagedFile(staged, replacing: path)
        try syncFolder((path as NSString).deletingLastPathComponent)
    }

    /// Renames a durable staged file over `path`; the caller fsyncs the folder (once for many
    /// files) before it counts on the new name.
    static func renameStagedFile(_ staged: String, replacing path: String) throws(LibraryError) {
        guard rename(staged, path) == 0 else {
            let reason = errnoMessage()
            unlink(staged)
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    /// Fsyncs files already written and closed, several at once: the storage takes them in
    /// parallel, where one after another each waits for the one before.
    static func syncFiles(_ paths: [String]) throws(LibraryError) {
        let failures = SliceResults<LibraryError?>(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            var failure: LibraryError?
            do throws(LibraryError) { try syncFile(paths[index]) } catch { failure = error }
            failures.set(index, .success(failure))
        }
        for result in failures.all {
            if case .success(let failure?) = result { throw failure }
        }
    }

    /// Fsyncs a file already written and closed.
    static func syncFile(_ path: String) throws(LibraryError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: errnoMessage()) }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 { throw .cannotWrite(path: path, reason: errnoMessage()) }
    }

    static func syncFolder(_ path: String) throws(LibraryError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: errnoMessage()) }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 { throw .cannotWrite(path: path, reason: errnoMessage()) }
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Reads a whole file, refusing ones larger than `limit` bytes before allocating for them.
    static func readFile(_ path: String, limit: Int64) throws(SourceReadError) -> [UInt8] {
        try withOpenFile(path) { descriptor throws(SourceReadError) in
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw .unreadable(errnoMessage()) }
            guard Int64(info.st_size) <= limit else { throw .tooLarge(size: Int64(info.st_size), limit: limit) }
            return try read(descriptor, upTo: Int(info.st_size))
        }
    }

    /// The first `count` bytes of a file (fewer if it is shorter).
    static func readHead(_ path: String, count: Int) throws(SourceReadError) -> [UInt8] {
        try withOpenFile(path) { descriptor throws(SourceReadError) in try read(descriptor, upTo: count) }
    }

    private static func withOpenFile<T>(_ path: String, _ body: (Int32) throws(SourceReadError) -> T)
        throws(SourceReadError) -> T
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(errnoMessage()) }
        defer { close(descriptor) }
        return try body(descriptor)
    }

    /// Reads until `count` bytes or the end of the file, retrying interrupted reads.
    private static func read(_ descriptor: Int32, upTo count: Int) throws(SourceReadError) -> [UInt8] {
        var failure: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            while filled < count {
                let got = Glibc.read(descriptor, buffer.baseAddress! + filled, count - filled)
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failure = errnoMessage(); return }
                if got == 0 { break }
                filled += got
            }
        }
        if let failure { throw .unreadable(failure) }
        return bytes
    }
}
