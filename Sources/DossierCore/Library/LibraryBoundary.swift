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

    /// Whether `path` (after resolving its links) is the library or lies inside it.
    public func contains(_ path: String) -> Bool {
        guard let realRoot, let real = LibraryBoundary.realPath(path) else { return false }
        return real == realRoot || real.hasPrefix(realRoot == "/" ? "/" : realRoot + "/")
    }

    /// Whether a folder met while walking is the library's root.
    public func isRoot(_ info: stat) -> Bool {
        realRoot != nil && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = SourcePath.withFileSystemPath(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return SourcePath.string(fromCString: resolved)
    }
}
