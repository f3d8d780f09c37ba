/// What an `InboxEventSource` saw happen in a watched folder.
public enum InboxEvent: Sendable, Equatable {
    /// A file was created or written to: it is being written, and is not taken yet.
    case writing(folder: Int32, name: String)
    /// A file was closed after writing (`IN_CLOSE_WRITE`) or moved in (`IN_MOVED_TO`): it is
    /// taken once its size and modification time stay the same for the settle time.
    case written(folder: Int32, name: String)
    /// A file's permissions, owner or times changed (`IN_ATTRIB`): one that could not be read
    /// may be readable now, so it is looked at again unless it is being written.
    case attributesChanged(folder: Int32, name: String)
    /// A file was deleted or moved away (`IN_DELETE`, `IN_MOVED_FROM`): one that stayed in the
    /// inbox after it was filed has left its path, and a file that comes there later is a new one.
    case removed(folder: Int32, name: String)
    /// A folder was created or moved in (or its permissions changed, so it may be readable now):
    /// it is watched, and what it already holds is picked up.
    case folderAppeared(folder: Int32, name: String)
    /// A watched folder is gone (deleted, moved away, unmounted): its watch is dropped.
    case folderGone(folder: Int32)
    /// The kernel's event queue overflowed: events were lost, and the inbox is read again.
    case overflow
}
