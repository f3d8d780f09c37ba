import DossierCore
import Foundation
import Glibc

/// One daemon per inbox: an exclusive `flock` on `<inbox>/.dossier-watch.lock` (a dotfile, so no
/// watcher takes it for a source), holding the pid of the daemon that has it. The kernel drops it
/// when the daemon dies, so a killed daemon leaves no stale lock. A read-only inbox (a `--keep`
/// on a share mounted read-only) is locked through a file in the runtime folder instead.
public final class InboxLock: Sendable {
    public static let fileName = ".dossier-watch.lock"

    public enum Failure: Error, CustomStringConvertible {
        case taken(inbox: String, holder: String)
        case cannotLock(path: String, reason: String)

        public var description: String {
            switch self {
            case .taken(let inbox, let holder):
                return "another `dossier watch` (\(holder)) is already watching \(SourcePath.displayed(inbox)); stop it first"
            case .cannotLock(let path, let reason):
                return "cannot lock \(SourcePath.displayed(path)): \(reason)"
            }
        }
    }

    private let descriptor: Int32

    public static func acquire(inbox: String) throws(Failure) -> InboxLock {
        var path = "\(inbox)/\(fileName)"
        var descriptor = SourcePath.withFileSystemPath(path) { open($0, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        if descriptor < 0 && (errno == EACCES || errno == EROFS) {
            let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? NSTemporaryDirectory()
            let key = ContentDigest(of: Array(inbox.utf8)).shortHex
            path = "\(runtime)/dossier-watch-\(key).lock"
            descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw .cannotLock(path: path, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = LockHolder.describe(descriptor)
            close(descriptor)
            throw .taken(inbox: inbox, holder: holder)
        }
        LockHolder.record(in: descriptor)
        return InboxLock(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
