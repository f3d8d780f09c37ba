import Foundation

/// Where the library lies on disk, as the file system sees it, so that nothing inside it is ever
/// taken for a source: a `dossier import LIB/pets --move` would otherwise find every photo a
/// "duplicate" of itself and remove it. Paths are compared after resolving every symbolic link
/// (of the library and of the source alike), and folders by device and inode, so neither a link
/// to the library nor a link inside a dump that leads into it gets past.
public struct LibraryBoundary: Sendable {
    /// The library's real path; nil while it does not exist (nothing can be inside it then).
    public let realRoot: String?
    private let device: UInt64
    private let inode: UInt64

    public init(root: String) {
        var info = stat()
        if let real = LibraryBoundary.realPath(root), stat(real, &info) == 0 {
            realRoot = real
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        } else {
            realRoot = nil
            device = 0
            inode = 0
        }
    }

    /// Whether `path` is the library or lies inside it: each folder above it, after resolving its
    /// links, is compared with the library's root by device and inode, so a bind mount or a
    /// second mount of the same disk (`/inbox/Library` and `/library` one folder) is seen through.
    public func contains(_ path: String) -> Bool {
        guard realRoot != nil, var current = LibraryBoundary.realPath(path) else { return false }
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

    /// Whether a folder is a Dossier library (this one or another): it holds a library's id or
    /// index. A library is never walked as sources (its year files, profiles and kept sources
    /// would be taken apart as logs); naming a folder inside another library imports from it.
    public static func isLibrary(_ folder: String) -> Bool {
        ["\(folder)/\(LibraryIdentity.relativePath)", "\(folder)/.dossier/index.sqlite"].contains {
            SourcePath.status($0, followingLinks: false) != nil
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = SourcePath.withFileSystemPath(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return SourcePath.string(fromCString: resolved)
    }
}
