/// A file the watcher will take once it has been quiet long enough.
struct SettlingFile {
    /// As last seen.
    var stamp: FileStamp
    /// When `stamp` was first seen: the file is taken once it has kept it for the settle time.
    var since: ContinuousClock.Instant
    /// How long it must keep it, when not the settle time: a file left in the inbox cut short
    /// waits `Settings.cutShortSettle` (a change makes it wait the settle time again).
    var wait: Duration? = nil
}
