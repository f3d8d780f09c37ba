import DossierWatch
import Synchronization

/// inotify, but losing every event while `losing` is set, then reporting the loss as the kernel
/// does (one `.overflow`): how a burst larger than fs.inotify.max_queued_events looks.
final class LossyEventSource: InboxEventSource, @unchecked Sendable {
    let losing = Atomic(false)
    private let lost = Atomic(false)
    private let inotify: InotifyEventSource
    /// Refuse watches past this many, as the kernel does at fs.inotify.max_user_watches.
    let watchLimit: Int
    private var watches = 0

    init(watchLimit: Int = .max) throws {
        inotify = try InotifyEventSource()
        self.watchLimit = watchLimit
    }

    func watch(folder path: String) throws(InboxWatchError) -> Int32 {
        watches += 1
        if watches > watchLimit { throw .watchLimitReached }
        return try inotify.watch(folder: path)
    }

    func reset() throws(InboxWatchError) {
        try inotify.reset()
    }

    func waitForEvents(timeout: Duration, wakeDescriptor: Int32) -> [InboxEvent] {
        let events = inotify.waitForEvents(timeout: timeout, wakeDescriptor: wakeDescriptor)
        if losing.load(ordering: .sequentiallyConsistent) {
            if !events.isEmpty { lost.store(true, ordering: .sequentiallyConsistent) }
            return []
        }
        if lost.exchange(false, ordering: .sequentiallyConsistent) { return [.overflow] + events }
        return events
    }
}
