import Foundation
import Synchronization

/// Fsyncs closed files on a thread of its own while the caller writes on. A big import closes
/// hundreds of year files as it goes; each fsync waits for the storage, and waiting on the
/// thread that writes held the whole pipeline up behind it (docs/performance.md says by how much).
final class BackgroundFileSync: Sendable {
    private let lane = BlockingWork.SerialLane("dossier.file-sync")
    private let failure = Mutex<LibraryError?>(nil)

    /// Starts fsyncing a file that is written and closed.
    func sync(_ path: String, in files: LibraryFileSystem) {
        sync { () throws(LibraryError) in try files.syncFile(path) }
    }

    /// Starts one fsync (or, in tests, what stands for one).
    func sync(_ work: @escaping @Sendable () throws(LibraryError) -> Void) {
        lane.add { [self] in
            do throws(LibraryError) {
                try work()
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
    }

    /// Waits until every file asked for is durable; throws the first failure.
    func wait() throws(LibraryError) {
        lane.drain()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
