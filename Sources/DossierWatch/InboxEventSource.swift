/// Where an `InboxWatcher` gets its events: inotify (`InotifyEventSource`), or, in tests, a
/// source that loses events on purpose to show that a rescan recovers them.
public protocol InboxEventSource: AnyObject {
    /// Starts watching one folder (not its subfolders); its events name it by the number returned.
    func watch(folder path: String) throws(InboxWatchError) -> Int32

    /// Waits up to `timeout` for events, or until `wakeDescriptor` becomes readable; returns
    /// those that came (none on a time-out or a wake-up).
    func waitForEvents(timeout: Duration, wakeDescriptor: Int32) -> [InboxEvent]

    /// Forgets every watch (the inbox went away and is attached again from scratch).
    func reset() throws(InboxWatchError)
}
