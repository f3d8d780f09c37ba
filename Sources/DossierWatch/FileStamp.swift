import DossierCore
import Glibc

/// A file's size, modification time and change time: what must stay the same for the settle time
/// before the file is taken, and what tells a file that changed since it was taken from one that
/// did not. The change time moves when only its permissions or owner do (`chmod` on a file that
/// could not be read): such a file is looked at again too.
struct FileStamp: Equatable, Sendable {
    let size: Int64
    let modificationTime: Int64
    let changeTime: Int64

    /// The stamp of a regular file (following a link to one); of a link to anything else (a
    /// folder, nothing, links in a loop), the link's own, so it is handed on and, never followed
    /// (`SourceLink`), listed as stuck with the reason; nil for anything else or nothing.
    static func of(_ path: String) -> (stamp: FileStamp, info: stat)? {
        if let info = SourcePath.status(path), info.st_mode & S_IFMT == S_IFREG { return (FileStamp(info), info) }
        guard let link = SourcePath.status(path, followingLinks: false), link.st_mode & S_IFMT == S_IFLNK else { return nil }
        return (FileStamp(link), link)
    }

    private init(_ info: stat) {
        size = Int64(info.st_size)
        modificationTime = SourceFile.nanoseconds(of: info.st_mtim)
        changeTime = SourceFile.nanoseconds(of: info.st_ctim)
    }
}
