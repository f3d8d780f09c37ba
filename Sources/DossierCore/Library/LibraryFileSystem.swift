import Foundation

/// The one way into a library's files: every write, rename, link, delete (and every read of a
/// file the library owns) goes through here.
///
/// Each path is resolved from the library's root one component at a time with `openat` and
/// `O_NOFOLLOW`, so no operation follows a symbolic link, wherever in the library it was put: a
/// `pets/leo/photos` link to another folder, a `.dossier/staging` link, a `lock` link to a file
/// elsewhere. A link found on the way is refused with `LibraryError.symbolicLink`, naming it.
/// The root itself is opened as the user named it (a `--library` that is a link is the user's
/// choice); everything below it is the library's own.
///
/// Data is fsynced before it gets its name, and a folder after it gains or loses one, so a crash
/// at any moment leaves either nothing or a whole, durable file.
public struct LibraryFileSystem: Sendable {
    /// The library's root, absolute and standardised.
    public let root: String

    public init(root: String) {
        self.root = root
    }

    public enum EntryType: Sendable, Equatable {
        case file
        case folder
        case symbolicLink
        case other
    }

    public enum LinkResult: Sendable {
        case linked
        case nameTaken
    }

    // MARK: Files

    /// Creates a new file (which must not exist) for writing (and reading back, when asked); the
    /// caller closes the descriptor.
    public func createFile(_ path: String, readingBack: Bool = false) throws(LibraryError) -> Int32 {
        try withParent(of: path, creatingFolders: false) { folder, name throws(LibraryError) in
            let access = readingBack ? O_RDWR : O_WRONLY
            let descriptor = openat(folder, name, access | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw failure(path, creating: true) }
            return descriptor
        }
    }

    /// Opens a regular file for reading; a link in its place is refused.
    public func openForReading(_ path: String) throws(LibraryError) -> Int32 {
        try withParent(of: path, creatingFolders: false) { folder, name throws(LibraryError) in
            let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { throw failure(path, creating: false) }
            return descriptor
        }
    }

    /// Opens (creating if needed) a file for reading and writing in place: the library's lock.
    public func openForUpdate(_ path: String) throws(LibraryError) -> Int32 {
        try withParent(of: path, creatingFolders: false) { folder, name throws(LibraryError) in
            let descriptor = openat(folder, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw failure(path, creating: true) }
            return descriptor
        }
    }

    /// Writes `bytes` to a new file (which must not exist) and fsyncs it (unless told not to, for
    /// scratch files a crash may lose).
    public func writeNewFile(_ bytes: [UInt8], at path: String, sync: Bool = true) throws(LibraryError) {
        let descriptor = try createFile(path)
        var problem: LibraryError?
        do throws(LibraryError) {
            try DurableFileSystem.writeAll(bytes, to: descriptor, path: path)
            if sync, fsync(descriptor) != 0 { throw LibraryError.cannotWrite(path: path, reason: .errno()) }
        } catch {
            problem = error
        }
        if close(descriptor) != 0, problem == nil { problem = .cannotWrite(path: path, reason: .errno()) }
        if let problem {
            try? remove(path)
            throw problem
        }
    }

    /// A whole file the library owns, refusing ones larger than `limit` bytes before reading.
    public func readFile(_ path: String, limit: Int64 = .max) throws(LibraryError) -> [UInt8] {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        do {
            return try DurableFileSystem.readAll(descriptor, limit: limit)
        } catch {
            throw .cannotRead(path: path, reason: "\(error)")
        }
    }

    /// Opens a folder of the library (for files made relative to it); the caller closes it.
    public func openFolder(_ path: String) throws(LibraryError) -> Int32 {
        try openFolder(try components(of: path), creating: false, path: path)
    }

    /// The size and digest of a file the library owns, read a chunk at a time (a filed copy may be
    /// as large as the largest photo).
    public func digest(ofFile path: String) throws(LibraryError) -> (size: Int64, digest: ContentDigest) {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        do {
            return try ScratchFile.hash(descriptor)
        } catch {
            throw .cannotRead(path: path, reason: "\(error)")
        }
    }

    /// Fsyncs a file already written and closed.
    public func syncFile(_ path: String) throws(LibraryError) {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        if fsync(descriptor) != 0 { throw .cannotWrite(path: path, reason: .errno()) }
    }

    /// Fsyncs files already written and closed, several at once: the storage takes them in
    /// parallel, where one after another each waits for the one before.
    public func syncFiles(_ paths: [String]) throws(LibraryError) {
        let failures = SliceResults<LibraryError?>(count: paths.count)
        BlockingWork.concurrentlyForEach(paths.count) { index in
            var problem: LibraryError?
            do throws(LibraryError) { try syncFile(paths[index]) } catch { problem = error }
            failures.set(index, .success(problem))
        }
        for result in failures.all {
            if case .success(let problem?) = result { throw problem }
        }
    }

    // MARK: Names

    /// Gives a durable staged file its final name without ever replacing an existing file
    /// (`linkat` fails if the name exists, where a rename would overwrite), creating the folders
    /// on the way, and fsyncs the folder.
    public func link(_ stagedPath: String, to finalPath: String) throws(LibraryError) -> LinkResult {
        try withParent(of: stagedPath, creatingFolders: false) { stagingFolder, stagedName throws(LibraryError) in
            try withParent(of: finalPath, creatingFolders: true) { folder, name throws(LibraryError) in
                if linkat(stagingFolder, stagedName, folder, name, 0) != 0 {
                    if errno == EEXIST { return .nameTaken }
                    throw LibraryError.cannotWrite(path: finalPath, reason: .errno())
                }
                if fsync(folder) != 0 { throw LibraryError.cannotWrite(path: finalPath, reason: .errno()) }
                return .linked
            }
        }
    }

    /// Moves a source from outside the library in under `path`, never replacing what is there:
    /// hard-linked in and its outside name removed (on the same file system), else copied into
    /// staging, fsynced and linked into place. The outside name is removed only once the library's
    /// name for the bytes is durable. Only the very file the source was found as is taken
    /// (`SourceFile.openForReading`): a link put in its place, or another file renamed over it, is
    /// refused, and no link ever lands in the library. A link that was followed (named by the
    /// user, or leading to a file of the folder walked) brings a copy of its file's bytes, and only
    /// the link itself goes: what it points at is not the caller's. A link not followed is refused.
    public func moveIn(_ source: SourceFile, to path: String, stagingFolder: String) throws(LibraryError) -> LinkResult {
        let outside = source.readPath
        if case .refused(let reason) = source.link { throw .cannotRead(path: outside, reason: FailureCause(reason)) }
        guard let info = SourcePath.status(outside, followingLinks: false) else {
            throw .cannotRead(path: outside, reason: .errno())
        }
        let isLink = source.link == .followed
        guard info.st_mode & S_IFMT == (isLink ? S_IFLNK : S_IFREG),
              isLink || source.identity == nil || source.identity == FileIdentity(info) else {
            throw .cannotRead(path: outside, reason: FailureCause("it was replaced by another file, or a link, after it was "
                + "found; nothing was taken into the library"))
        }
        let linked = isLink ? nil : try withParent(of: path, creatingFolders: true) { folder, name throws(LibraryError) -> LinkResult? in
            if SourcePath.withFileSystemPath(outside, { linkat(AT_FDCWD, $0, folder, name, 0) }) != 0 {
                if errno == EEXIST { return .nameTaken }
                // Another file system, or hard links not allowed there: copied instead.
                if errno == EXDEV || errno == EPERM || errno == EMLINK { return nil }
                throw LibraryError.cannotWrite(path: path, reason: .errno())
            }
            // The name made is the file that was checked: a link swapped in between is linked as
            // itself (`linkat` follows none), and taken out again at once.
            var made = stat()
            guard fstatat(folder, name, &made, AT_SYMLINK_NOFOLLOW) == 0, made.st_mode & S_IFMT == S_IFREG,
                  source.identity == nil || source.identity == FileIdentity(made) else {
                unlinkat(folder, name, 0)
                throw LibraryError.cannotRead(path: outside, reason: FailureCause("it was replaced by another file, or a link, "
                    + "while it was taken in; nothing was taken into the library"))
            }
            if fsync(folder) != 0 { throw LibraryError.cannotWrite(path: path, reason: .errno()) }
            return .linked
        }
        let result: LinkResult
        if let linked {
            result = linked
        } else {
            result = try copyIn(source, to: path, stagingFolder: stagingFolder)
        }
        guard result == .linked else { return result }
        if SourcePath.withFileSystemPath(outside, { unlink($0) }) != 0 && errno != ENOENT {
            throw .cannotWrite(path: outside, reason: "copied into the library, but not removed: \(errnoMessage())")
        }
        return .linked
    }

    private func copyIn(_ file: SourceFile, to path: String, stagingFolder: String) throws(LibraryError) -> LinkResult {
        let outside = file.readPath
        let source: Int32
        do { source = try file.openForReading() } catch {
            if case .unreadable(let reason) = error { throw .cannotRead(path: outside, reason: FailureCause(reason)) }
            throw .cannotRead(path: outside, reason: "\(error)")
        }
        defer { close(source) }
        let staged = "\(stagingFolder)/\(UUID().uuidString).part"
        let target = try createFile(staged)
        var problem: LibraryError?
        do {
            _ = try ScratchFile.copyAll(source, to: target, path: staged)
        } catch let error as LibraryError {
            problem = error
        } catch {
            problem = .cannotRead(path: outside, reason: "\(error)")
        }
        if problem == nil, fsync(target) != 0 { problem = .cannotWrite(path: staged, reason: .errno()) }
        close(target)
        defer { try? remove(staged) }
        if let problem { throw problem }
        return try link(staged, to: path)
    }

    /// Renames a durable staged file over `path` (creating the folders on the way); with `sync`,
    /// fsyncs the folder, else the caller does (once for many files) before it counts on the name.
    /// A link in `path`'s place is replaced, never followed.
    public func rename(_ stagedPath: String, replacing path: String, sync: Bool = true) throws(LibraryError) {
        do {
            try withParent(of: stagedPath, creatingFolders: false) { stagingFolder, stagedName throws(LibraryError) in
                try withParent(of: path, creatingFolders: true) { folder, name throws(LibraryError) in
                    if renameat(stagingFolder, stagedName, folder, name) != 0 {
                        throw LibraryError.cannotWrite(path: path, reason: .errno())
                    }
                    if sync, fsync(folder) != 0 { throw LibraryError.cannotWrite(path: path, reason: .errno()) }
                }
            }
        } catch {
            try? remove(stagedPath)
            throw error
        }
    }

    /// Replaces (or creates) a file so that readers see the old or the new contents whole:
    /// staged, fsynced, renamed into place, folder fsynced.
    public func replaceFile(at path: String, with bytes: [UInt8], stagingFolder: String) throws(LibraryError) {
        let staged = "\(stagingFolder)/\(UUID().uuidString).part"
        try writeNewFile(bytes, at: staged)
        try rename(staged, replacing: path)
    }

    /// Removes a file (or a link: the link itself, never what it points at).
    public func remove(_ path: String) throws(LibraryError) {
        try withParent(of: path, creatingFolders: false) { folder, name throws(LibraryError) in
            if unlinkat(folder, name, 0) != 0 && errno != ENOENT {
                throw LibraryError.cannotWrite(path: path, reason: .errno())
            }
        }
    }

    // MARK: Folders

    /// Removes the regular files in a staging folder last changed more than `age` seconds ago:
    /// what a killed run left. Younger ones may be another run's, under way, and stay. Nothing
    /// it cannot remove stops it: it is tidying, not the work.
    public func removeFilesLeft(in folder: String, olderThan age: TimeInterval) {
        let cutoff = Date().timeIntervalSince1970 - age
        for entry in (try? entries(in: folder)) ?? []
        where entry.info.st_mode & S_IFMT == S_IFREG && Double(entry.info.st_mtim.tv_sec) < cutoff {
            try? remove("\(folder)/\(entry.name)")
        }
    }

    /// Removes a folder if it is empty (never a link, never a folder with anything in it): true
    /// when it is gone.
    @discardableResult
    public func removeFolderIfEmpty(_ path: String) throws(LibraryError) -> Bool {
        try withParent(of: path, creatingFolders: false) { folder, name throws(LibraryError) -> Bool in
            if unlinkat(folder, name, AT_REMOVEDIR) == 0 || errno == ENOENT { return true }
            if errno == ENOTEMPTY || errno == EEXIST || errno == ENOTDIR { return false }
            throw LibraryError.cannotWrite(path: path, reason: .errno())
        }
    }

    /// Creates a folder and any missing parents below the root, fsyncing each parent that gained
    /// an entry so the new folders survive a crash.
    public func createFolders(_ path: String) throws(LibraryError) {
        let folder = try openFolder(components(of: path), creating: true, path: path)
        close(folder)
    }

    public func syncFolder(_ path: String) throws(LibraryError) {
        let folder = try openFolder(components(of: path), creating: false, path: path)
        defer { close(folder) }
        if fsync(folder) != 0 { throw .cannotWrite(path: path, reason: .errno()) }
    }

    /// The names in a folder (none when it does not exist), `.` and `..` left out.
    public func names(in path: String) throws(LibraryError) -> [String] {
        try entries(in: path, statingEach: false).map(\.name)
    }

    /// The names in a folder with what each is (`lstat`: a link is a link), `.` and `..` left
    /// out; none when the folder does not exist. An entry gone between the listing and its stat
    /// is left out.
    public func entries(in path: String) throws(LibraryError) -> [(name: String, info: stat)] {
        try entries(in: path, statingEach: true)
    }

    private func entries(in path: String, statingEach: Bool) throws(LibraryError) -> [(name: String, info: stat)] {
        let folder: Int32
        do {
            folder = try openFolder(components(of: path), creating: false, path: path)
        } catch .missing {
            return []
        }
        guard let stream = fdopendir(folder) else {
            close(folder)
            throw .cannotRead(path: path, reason: .errno())
        }
        defer { closedir(stream) }
        var entries: [(name: String, info: stat)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                SourcePath.string(fromFileSystem: raw.prefix(while: { $0 != 0 }))
            }
            guard name != ".", name != ".." else { continue }
            var info = stat()
            if statingEach {
                guard SourcePath.withFileSystemPath(name, { fstatat(dirfd(stream), $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else { continue }
            }
            entries.append((name, info))
        }
        return entries
    }

    /// What is at `path`, without following a link there; nil when nothing is.
    public func entryType(_ path: String) throws(LibraryError) -> EntryType? {
        do {
            return try withParent(of: path, creatingFolders: false) { folder, name throws(LibraryError) in
                var info = stat()
                guard SourcePath.withFileSystemPath(name, { fstatat(folder, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else {
                    if errno == ENOENT { return nil }
                    throw LibraryError.cannotRead(path: path, reason: .errno())
                }
                switch info.st_mode & S_IFMT {
                case S_IFREG: return .file
                case S_IFDIR: return .folder
                case S_IFLNK: return .symbolicLink
                default: return .other
                }
            }
        } catch .missing {
            return nil
        }
    }

    /// Whether a regular file is at `path` (a link there is not one).
    public func isFile(_ path: String) -> Bool {
        (try? entryType(path)) == .file
    }

    /// The size of the regular file at `path`; nil when there is none (or a link is there).
    public func fileSize(_ path: String) -> Int64? {
        try? withParent(of: path, creatingFolders: false) { folder, name throws(LibraryError) -> Int64? in
            var info = stat()
            guard SourcePath.withFileSystemPath(name, { fstatat(folder, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return Int64(info.st_size)
        }
    }

    /// The device and inode of the regular file at `path`; nil when there is none (or a link is
    /// there). Two names with one identity are one file: a second name linked for it.
    public func fileIdentity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        try? withParent(of: path, creatingFolders: false) { folder, name throws(LibraryError) -> (UInt64, UInt64)? in
            var info = stat()
            guard SourcePath.withFileSystemPath(name, { fstatat(folder, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return (UInt64(info.st_dev), UInt64(info.st_ino))
        }
    }

    /// The size and modification time (seconds since 1970) of the regular file at `path`; nil
    /// when there is none (or a link is there).
    public func sizeAndModificationTime(_ path: String) -> (size: Int64, modified: Double)? {
        try? withParent(of: path, creatingFolders: false) { folder, name throws(LibraryError) -> (Int64, Double)? in
            var info = stat()
            guard SourcePath.withFileSystemPath(name, { fstatat(folder, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return (Int64(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        }
    }

    /// Refuses a link (or anything but a folder or a file, as `expected` says) at each of these
    /// paths that exists: the folders and files every run relies on, checked once when the
    /// library is opened, before any of them is used.
    public func checkNoLinks(_ paths: [String]) throws(LibraryError) {
        for path in paths where try entryType(path) == .symbolicLink {
            throw .symbolicLink(path: path)
        }
    }

    // MARK: Walking from the root

    /// The components of `path` below the root; refuses a path outside it.
    func components(of path: String) throws(LibraryError) -> [String] {
        guard path.hasPrefix(root) else { throw .pathOutsideLibrary(path) }
        let rest = path.dropFirst(root.count)
        guard rest.isEmpty || rest.hasPrefix("/") || root == "/" else { throw .pathOutsideLibrary(path) }
        let parts = rest.split(separator: "/").map(String.init)
        guard !parts.contains(where: { $0 == "." || $0 == ".." }) else { throw .pathOutsideLibrary(path) }
        return parts
    }

    /// Runs `body` with a descriptor of `path`'s folder (opened without following links) and the
    /// last component's name.
    func withParent<T>(of path: String, creatingFolders: Bool,
                       _ body: (Int32, String) throws(LibraryError) -> T) throws(LibraryError) -> T {
        let parts = try components(of: path)
        guard let name = parts.last else { throw .pathOutsideLibrary(path) }
        let folder = try openFolder(parts.dropLast(), creating: creatingFolders, path: path)
        defer { close(folder) }
        return try body(folder, name)
    }

    /// Opens the folder the components lead to from the root, one `openat` at a time with
    /// `O_NOFOLLOW`; missing folders are created (and their parents fsynced) when asked.
    func openFolder<C: Collection<String>>(_ parts: C, creating: Bool, path: String) throws(LibraryError) -> Int32 {
        var current = SourcePath.withFileSystemPath(root) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard current >= 0 else {
            if errno == ENOENT { throw .missing(path: root) }
            throw .cannotRead(path: root, reason: .errno())
        }
        var walked = root
        for part in parts {
            walked += "/" + part
            var next = openat(current, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && creating {
                if mkdirat(current, part, 0o755) != 0 && errno != EEXIST {
                    let reason = FailureCause.errno()
                    close(current)
                    throw .cannotCreate(path: walked, reason: reason)
                }
                if fsync(current) != 0 {
                    let reason = FailureCause.errno()
                    close(current)
                    throw .cannotWrite(path: walked, reason: reason)
                }
                next = openat(current, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if next < 0 {
                let code = errno
                var info = stat()
                let isLink = fstatat(current, part, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
                close(current)
                if isLink { throw .symbolicLink(path: walked) }
                if code == ENOENT { throw .missing(path: walked) }
                if code == ENOTDIR { throw .cannotWrite(path: walked, reason: "a file is where a folder belongs") }
                throw .cannotRead(path: walked, reason: .errno(code))
            }
            close(current)
            current = next
        }
        return current
    }

    private func failure(_ path: String, creating: Bool) -> LibraryError {
        let code = errno
        if code == ELOOP { return .symbolicLink(path: path) }
        if code == ENOENT && !creating { return .missing(path: path) }
        return creating ? .cannotWrite(path: path, reason: .errno(code))
                        : .cannotRead(path: path, reason: .errno(code))
    }
}
