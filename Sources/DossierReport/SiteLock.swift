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

    /// Locks the site's folder at `path`, opened through `files` (a link in its place is refused,
    /// never followed). If another report holds it, calls `waiting` and blocks until it is free.
    static func take(_ path: String, through files: LibraryFileSystem, waiting: () -> Void) throws(LibraryError) -> Outcome {
        let descriptor = try files.openFolder(path)
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                let reason = FailureCause.errno()
                close(descriptor)
                return .unsupported(reason: reason)
            }
            waiting()
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let reason = FailureCause.errno()
                    close(descriptor)
                    return .unsupported(reason: reason)
                }
            }
        }
        return .locked(SiteLock(descriptor: descriptor))
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
