import DossierCore
import Foundation
import Glibc

/// One daemon per inbox: an exclusive `flock` on `dossier-watch-<device>-<inode>.lock`, named for
/// the inbox folder itself (whatever path or mount it is named by), holding the pid of the daemon
/// that has it. The kernel drops it when the daemon dies, so a killed daemon leaves no stale lock.
///
/// It lives in a runtime folder every daemon of the user finds whatever its environment: for
/// root `/run/dossier`; for the account that owns `/run/dossier` (the system unit's `dossier`)
/// that folder too; for others `/run/user/<uid>` (what `$XDG_RUNTIME_DIR` names in a login
/// session and under `systemctl --user`), else `$XDG_RUNTIME_DIR`, else the temporary folder.
/// Never in the inbox, where a sync tool would carry it to every device, nor in the library,
/// where an open file would keep its drive from being unmounted.
public final class InboxLock: Sendable {
    /// Where daemons before this one kept their lock, in the inbox itself.
    static let formerFileName = ".dossier-watch.lock"

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
    /// The lock file's path, for the tests and the status.
    public let path: String

    public static func acquire(inbox: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(Failure) -> InboxLock
    {
        guard let info = SourcePath.status(inbox) else { throw .cannotLock(path: inbox, reason: errnoText()) }
        let folder = runtimeFolder(environment)
        if folder == systemFolder { mkdir(folder, 0o755) }
        let path = "\(folder)/dossier-watch-\(info.st_dev)-\(info.st_ino).lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotLock(path: path, reason: errnoText()) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = LockHolder.describe(descriptor)
            close(descriptor)
            throw .taken(inbox: inbox, holder: holder)
        }
        do {
            try removeFormerLock(in: inbox)
        } catch {
            close(descriptor)
            throw error
        }
        LockHolder.record(in: descriptor)
        return InboxLock(descriptor: descriptor, path: path)
    }

    /// Where the lock goes: the same for every daemon of one user, so a shell's and a service's
    /// (which see different environments) meet there.
    static func runtimeFolder(_ environment: [String: String]) -> String {
        if getuid() == 0 { return systemFolder }
        // The system unit's account has no login session, so no /run/user/<uid>, and the
        // service's /tmp is its own (PrivateTmp=): the unit and systemd-tmpfiles keep
        // /run/dossier for it, where the service and that account's shell both look.
        if isOwnFolder(systemFolder) { return systemFolder }
        let usersOwn = "/run/user/\(getuid())"
        if access(usersOwn, W_OK | X_OK) == 0 { return usersOwn }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, access(runtime, W_OK | X_OK) == 0 { return runtime }
        let temporary = NSTemporaryDirectory()
        return temporary.count > 1 && temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary
    }

    static let systemFolder = "/run/dossier"

    /// A real folder (not a link) this process's user owns and may write in.
    private static func isOwnFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_uid == getuid()
            && access(path, W_OK | X_OK) == 0
    }

    /// An earlier Dossier's lock in the inbox: refused while that daemon still holds it (so a
    /// daemon of each version cannot run on one inbox), removed once nobody does.
    private static func removeFormerLock(in inbox: String) throws(Failure) {
        let former = "\(inbox)/\(formerFileName)"
        let descriptor = SourcePath.withFileSystemPath(former) { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            throw .taken(inbox: inbox, holder: LockHolder.describe(descriptor))
        }
        _ = SourcePath.withFileSystemPath(former) { unlink($0) }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
