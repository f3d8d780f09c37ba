import DossierCore
import Glibc

/// Whether some process still has a file open for writing, asked of the kernel with a read
/// lease (fcntl(2) F_SETLEASE): it is refused with EAGAIN exactly when the file is open for
/// writing anywhere on this machine.
///
/// Events alone cannot say so for a file that was already open when its folder came to be
/// watched (a sync tool makes a folder, then writes a file into it at once), nor for the files a
/// scan finds; a writer that pauses longer than the settle time would then lose its file to a
/// half-read. Asked just before a file is taken, the kernel knows.
enum OpenWriters {
    /// Linux's values (fcntl.h); Glibc's module does not carry them.
    private static let setLease: Int32 = 1024
    private static let readLease: Int32 = 0
    private static let unlock: Int32 = 2

    /// True when a writer has it open; false when none has; nil when the kernel cannot say
    /// (another user's file, a network file system): the settle time alone decides then.
    static func holdOpen(_ path: String) -> Bool? {
        let descriptor = SourcePath.withFileSystemPath(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        if fcntl(descriptor, setLease, readLease) == 0 {
            _ = fcntl(descriptor, setLease, unlock)
            return false
        }
        return errno == EAGAIN ? true : nil
    }
}
