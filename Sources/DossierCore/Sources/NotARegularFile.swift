import Glibc

/// A FIFO, a socket or a device node met among the sources (a dump copied with `cp -a` from a
/// system folder, a tool's pipe left in a synced inbox). It is never opened: opening a FIFO waits
/// for a writer (for ever, when none comes), a socket cannot be opened, and opening a device may
/// do anything (rewind a tape). It is skipped and said, with its own code, so nothing in the
/// folder goes by without a line.
public enum NotARegularFile {
    /// The `errorCode` of a source skipped for not being a regular file.
    public static let code = "not-a-regular-file"

    /// What the file at `path` is, by its own status (a link is not followed), when it is there
    /// and is neither a regular file, a folder nor a symbolic link; nil otherwise.
    public static func kind(at path: String) -> String? {
        SourcePath.status(path, followingLinks: false).flatMap(kind(of:))
    }

    /// What a status says the file is, when it is none of a regular file, a folder and a link.
    public static func kind(of info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFIFO: return "a FIFO (a named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFREG, S_IFDIR, S_IFLNK: return nil
        default: return "a special file"
        }
    }

    /// Why such a file is skipped, as a person should read it.
    public static func reason(kind: String) -> String {
        "it is \(kind), not a regular file; Dossier reads only regular files, and never opens anything else"
    }
}
