import Logging

/// What a line of the daemon's log says happened: its `event` field, always one of these, so a
/// collector can filter on it. The other fields of a line: `time`, `level`, and, as the event
/// has them, `source`, `subject`, `destination`, `library`, `reason`, `retry`, the counts
/// `found`, `files`, `recordsAdded`, `recordsDuplicate`, `recordsReplaced` (numbers),
/// `problems` (the source's problems, each naming its line); for a source of profiles,
/// `profiles` (the fields it changed, per subject) and `profilesKept` (the fields typed by hand
/// it left, with the value the file gave); `damaged` (`true`) on a `filed` or `duplicate` line of
/// a file filed as it is though damaged, its `reason` saying how.
public enum WatchEvent: String, CaseIterable, Sendable {
    /// Started: the inbox, the library, and how many files it found there.
    case watching
    /// A source filed (and, unless --keep, taken out of the inbox).
    case filed
    /// A source whose content the library holds already (taken out of the inbox all the same).
    case duplicate
    /// A source that could not be filed, moved to the library's quarantine with a note.
    case quarantined
    /// A source that could be neither filed nor quarantined (unreadable, a link that leads
    /// nowhere): it stays in the inbox, `dossier quarantine list` shows it, and it is tried again
    /// when it changes and on SIGHUP.
    case stuck
    /// With --keep, a source that could not be filed; or a batch the library failed (retried).
    case failed
    /// With --report, the library's site refreshed after a batch: `files` written (0: nothing changed).
    case report
    /// A filed source left in the inbox, and why (it changed while it was read, ...).
    case kept
    /// A source left in the inbox until another file comes (a sidecar waiting for its photo),
    /// then tried again.
    case pending
    /// A file that reads cut short (a JPEG before its end marker, a box past the end of the file)
    /// left in the inbox while it may still be written: taken again when it changes, and filed
    /// as it is (its `filed` line at warning level, `damaged`) once it has not changed for ten
    /// times `--settle`.
    case incomplete
    /// A folder in the inbox left alone: a Dossier library (this one, seen through a second
    /// mount, or another moved in), which is never taken apart, or a report's site; or a FIFO,
    /// socket or device (`code` `not-a-regular-file`), never opened: each said once.
    case passedOver = "passed-over"
    /// The inbox read again, and why.
    case rescan
    /// SIGHUP: configuration and inbox read again.
    case reload
    /// inotify could not be had: the inbox is read every so often instead.
    case polling
    /// The library is busy (another import): waiting for it.
    case waiting
    /// The inbox is not there (deleted, moved, unmounted): waiting for it.
    case inboxGone = "inbox-gone"
    /// The library is not there, or another one is at its path: nothing is filed, every inbox
    /// file stays, until it is back.
    case libraryGone = "library-gone"
    /// The library it started with is back at its path.
    case libraryBack = "library-back"
    /// Opening the library did something worth knowing: rebuilt a missing index, say.
    case library
    /// SIGTERM or SIGINT: finishing the files under way.
    case stopping
    /// Stopped.
    case stopped
}

extension Logger {
    /// One line of the daemon's log: the event, and its fields.
    public func record(_ event: WatchEvent, level: Logger.Level = .info, _ fields: Logger.Metadata = [:]) {
        log(level: level, "\(event.rawValue)", metadata: fields)
    }
}
