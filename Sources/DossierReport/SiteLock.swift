import DossierCore
import Foundation

/// Two reports of one site take turns (a `dossier report` while `dossier watch --report` writes
/// the same site, or two by hand): each would otherwise write the site's state from what it
/// read, and one could remove a year page the other had just linked to.
///
/// An exclusive `flock` on the site's folder itself, taken before the state is read, dropped
/// when the report ends or its process dies (the kernel drops it, so a killed report leaves no
/// stale lock). On the folder, not on a file in it: a report that changes nothing leaves every
/// file of the site as it was, and a sync tool publishing the site sees nothing new.
final class SiteLock {
    private let descriptor: Int32

    /// What taking the lock came to.
    enum Outcome {
        case locked(SiteLock)
        /// The site's file system cannot lock a folder (some network file systems): the
        /// report goes on unlocked, and says so.
        case unsupported(reason: FailureCause)
    }

    /// Locks the site's folder at `path` (made if missing), opened through `files` (a link in its
    /// place is refused, never followed). If another report holds it, calls `waiting` once and
    /// blocks until it is free.
    ///
    /// The lock is on a folder, the pages are written by path: a site moved, removed or replaced
    /// while this report waited is not the one it holds, and another report may be writing the
    /// one there now. So once it holds the lock it looks again, and locks what the path leads to
    /// now if that is another folder.
    static func take(_ path: String, through files: LibraryFileSystem, waiting: () -> Void) throws(LibraryError) -> Outcome {
        var waited = false
        for _ in 0..<attempts {
            try files.createFolders(path)
            let descriptor = try files.openFolder(path)
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK else {
                    let reason = FailureCause.errno()
                    close(descriptor)
                    return .unsupported(reason: reason)
                }
                if !waited { waiting() }
                waited = true
                while flock(descriptor, LOCK_EX) != 0 {
                    guard errno == EINTR else {
                        let reason = FailureCause.errno()
                        close(descriptor)
                        return .unsupported(reason: reason)
                    }
                }
            }
            switch standing(of: path, lockedAs: descriptor) {
            case .theLockedFolder: return .locked(SiteLock(descriptor: descriptor))
            case .aLink:
                close(descriptor)
                throw .symbolicLink(path: path)
            case .another:
                close(descriptor)
            }
        }
        throw .cannotWrite(path: path, reason: "the site's folder was moved or replaced again and again while this report waited for another report of it")
    }

    /// How often the lock is taken again on a site that keeps changing under it, before giving up.
    static let attempts = 8

    private enum Standing { case theLockedFolder, aLink, another }

    /// What `path` names now, beside the folder whose lock this report holds.
    private static func standing(of path: String, lockedAs descriptor: Int32) -> Standing {
        var held = stat(), named = stat()
        guard fstat(descriptor, &held) == 0, lstat(path, &named) == 0 else { return .another }
        if named.st_mode & S_IFMT == S_IFLNK { return .aLink }
        return named.st_mode & S_IFMT == S_IFDIR && named.st_dev == held.st_dev && named.st_ino == held.st_ino
            ? .theLockedFolder : .another
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
