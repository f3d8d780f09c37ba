import DossierCore
import Glibc

/// A file's size and modification time: what must stay the same for the settle time before the
/// file is taken, and what tells a file that changed since it was taken from one that did not.
struct FileStamp: Equatable, Sendable {
    let size: Int64
    let modificationTime: Int64

    /// The stamp of a regular file (following a link to one); nil for anything else or nothing.
    static func of(_ path: String) -> (stamp: FileStamp, info: stat)? {
        guard let info = SourcePath.status(path), info.st_mode & S_IFMT == S_IFREG else { return nil }
        return (FileStamp(size: Int64(info.st_size), modificationTime: SourceFile.nanoseconds(of: info.st_mtim)), info)
    }
}
