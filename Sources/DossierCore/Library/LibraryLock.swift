import Foundation
import Synchronization

/// Only one writer at a time per library: an exclusive `flock` on `.dossier/lock`, released when
/// this object goes away or the process dies (the kernel drops it, so a killed import never
/// leaves a stale lock behind).
public final class LibraryLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock. If another process holds it: with `wait`, calls `waiting` with a description
    /// of the holder and blocks until it is free; without, throws `LibraryError.busy`.
    public static func acquire(_ layout: LibraryLayout, wait: Bool,
                               waiting: (String) -> Void = { _ in }) throws(LibraryError) -> LibraryLock
    {
        let path = layout.lockFile.path
        // Through the library's file system: a link in the lock's place is refused, not truncated.
        let descriptor = try layout.files.openForUpdate(path)
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let holder = LockHolder.describe(descriptor)
            guard wait else {
                close(descriptor)
                throw .busy(library: layout.root.path, holder: holder)
            }
            waiting(holder)
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    close(descriptor)
                    throw .cannotWrite(path: path, reason: .errno())
                }
            }
        }
        LockHolder.record(in: descriptor)
        return LibraryLock(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    private let released = Mutex(false)

    /// Lets the library go now: another import (or the daemon's next batch) may take it.
    public func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        guard first else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    deinit {
        release()
    }
}
