import Foundation

/// Where the library lies on disk, as the file system sees it, so that nothing inside it is ever
/// taken for a source: a `dossier import LIB/pets --move` would otherwise find every photo a
/// "duplicate" of itself and remove it. Paths are compared after resolving every symbolic link
/// (of the library and of the source alike), folders by device and inode, and places in their
/// file system whatever mount they are seen through (`MountTable`), so neither a link to the
/// library, a link inside a dump that leads into it, nor a bind mount of it or of a folder of it
/// gets past.
public struct LibraryBoundary: Sendable {
    /// The library's real path; nil while it does not exist (nothing can be inside it then).
    public let realRoot: String?
    private let device: UInt64
    private let inode: UInt64
    /// The library's place in its file system.
    private let place: MountTable.Place?

    public init(root: String, mounts: MountTable = .current()) {
        var info = stat()
        if let real = LibraryBoundary.realPath(root), stat(real, &info) == 0 {
            realRoot = real
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            place = mounts.place(ofRealPath: real)
        } else {
            realRoot = nil
            device = 0
            inode = 0
            place = nil
        }
    }

    /// Whether `path` is the library or lies inside it: each folder above it, after resolving its
    /// links, is compared with the library's root by device and inode, and its place in its file
    /// system with the library's, so a bind mount of the library or of any folder in it, or a
    /// second mount of the same disk (`/inbox/Library` and `/library` one folder), is seen through.
    public func contains(_ path: String, mounts: MountTable = .current()) -> Bool {
        guard realRoot != nil, let real = LibraryBoundary.realPath(path) else { return false }
        if let place, let other = mounts.place(ofRealPath: real), other.isWithin(place) { return true }
        var current = real
        while true {
            if let info = SourcePath.status(current), isRoot(info) { return true }
            guard current != "/", !current.isEmpty else { return false }
            current = (current as NSString).deletingLastPathComponent
        }
    }

    /// Whether a folder met while walking is the library's root.
    public func isRoot(_ info: stat) -> Bool {
        realRoot != nil && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// Whether a folder is a Dossier library (this one or another): it holds a library's id, its
    /// index, or its settings (`config/library.json`, which a backup restored without dotfiles
    /// still has). A library is never walked as sources (its year files, profiles and kept
    /// sources would be taken apart as logs); naming a folder inside another library imports
    /// from it.
    public static func isLibrary(_ folder: String) -> Bool {
        [LibraryIdentity.relativePath, ".dossier/index.sqlite", LibraryTimeZone.configurationPath].contains {
            SourcePath.status("\(folder)/\($0)", followingLinks: false) != nil
        }
    }

    /// Whether a folder met while walking (an import's dump, the daemon's inbox) is a library or a
    /// folder of one, never to be walked: true for `library` (the one files go into; seen through
    /// a second mount, or a folder of it mounted there), false for another, nil for neither. A
    /// mount point may show a folder of a library (its `pets`, its `quarantine`) whose markers are
    /// in the folders above it on its disk.
    public static func libraryKind(of folder: String, info: stat? = nil, library: LibraryBoundary?, mounts: MountTable) -> Bool? {
        let isMountPoint = mounts.isMountPoint(folder)
        if let library, (info ?? SourcePath.status(folder)).map(library.isRoot) == true
            || (isMountPoint && library.contains(folder, mounts: mounts)) {
            return true
        }
        if isLibrary(folder) || (isMountPoint && self.library(holding: folder, mounts: mounts) != nil) { return false }
        return nil
    }

    /// The Dossier library a folder lies in, found through any mount that shows the folders above
    /// its place in its file system (a bind mount of a library's `pets` folder shows none of the
    /// library's own markers, but the disk it is on may be mounted whole elsewhere); nil when none.
    public static func library(holding folder: String, mounts: MountTable) -> String? {
        guard let real = realPath(folder), let place = mounts.place(ofRealPath: real) else { return nil }
        var path = place.path
        while true {
            for visible in mounts.paths(of: MountTable.Place(device: place.device, path: path)) where isLibrary(visible) {
                return visible
            }
            guard path != "/", !path.isEmpty else { return nil }
            path = (path as NSString).deletingLastPathComponent
        }
    }

    static func realPath(_ path: String) -> String? {
        SourcePath.realPath(path)
    }
}

// MARK: - No library inside another

/// A library is made only where no other library lies above or below it: an outer library's
/// `index rebuild` and `verify` would otherwise meet the inner one's index, lock and settings
/// among its subjects' files (`dossier init L/pets/leo/photos/x`), and an import walking a folder
/// that holds a library passes it over whole.
extension LibraryBoundary {
    /// Refuses to make a library at `root` when another library lies above it or below it.
    public static func checkNoOtherLibrary(around root: String, mounts: MountTable = .current()) throws(LibraryError) {
        if let above = libraryAbove(root, mounts: mounts) {
            throw .nestedLibrary(path: root, other: above, otherIsAbove: true)
        }
        if let below = libraryBelow(root) {
            throw .nestedLibrary(path: root, other: below, otherIsAbove: false)
        }
    }

    /// The library that holds `root` (made or not yet), found from the nearest folder above it
    /// that exists, through its links and through any mount that shows the folders above it; nil
    /// when none does. `root` itself is not looked at.
    public static func libraryAbove(_ root: String, mounts: MountTable = .current()) -> String? {
        var folder = (URL(fileURLWithPath: root).standardizedFileURL.path as NSString).deletingLastPathComponent
        while realPath(folder) == nil, folder != "/", !folder.isEmpty {
            folder = (folder as NSString).deletingLastPathComponent
        }
        guard let real = realPath(folder) else { return nil }
        var current = real
        while true {
            if isLibrary(current) { return current }
            guard current != "/", !current.isEmpty else { break }
            current = (current as NSString).deletingLastPathComponent
        }
        return library(holding: real, mounts: mounts)
    }

    /// The first library found in the folders below `root` (not `root` itself), walked without
    /// following a link; nil when none is there, or `root` does not exist. Only a library about to
    /// be made walks it, once: a folder that is missing or empty costs one `opendir`.
    public static func libraryBelow(_ root: String) -> String? {
        var pending = [URL(fileURLWithPath: root).standardizedFileURL.path]
        while let folder = pending.popLast() {
            guard let stream = SourcePath.withFileSystemPath(folder, { opendir($0) }) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { SourcePath.string(fromCString: $0) }
                }
                guard name != ".", name != ".." else { continue }
                let path = folder == "/" ? "/\(name)" : "\(folder)/\(name)"
                let type = entry.pointee.d_type
                let isFolder = type == UInt8(DT_UNKNOWN)
                    ? SourcePath.status(path, followingLinks: false).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
                    : type == UInt8(DT_DIR)
                guard isFolder else { continue }
                if isLibrary(path) { return path }
                pending.append(path)
            }
        }
        return nil
    }
}
