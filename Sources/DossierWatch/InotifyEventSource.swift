import DossierCore
import Glibc

/// The kernel's file events for the watched folders, through inotify (no library needed).
///
/// inotify sees what this machine writes; a network share written by another host shows nothing,
/// which is what `--poll` is for.
public final class InotifyEventSource: InboxEventSource {
    /// What each folder is watched for. `IN_CLOSE_WRITE` and `IN_MOVED_TO` say a file is whole;
    /// `IN_CREATE` and `IN_MODIFY` say one is being written; `IN_ATTRIB` that a file's (or a
    /// folder's) permissions changed, so one that could not be read may be readable now;
    /// `IN_DELETE` and `IN_MOVED_FROM` that one left (a file filed and kept with `--keep`, then
    /// deleted: a file of its name later is a new one); the
    /// `_SELF` events say the folder itself went away. `IN_ONLYDIR` and `IN_DONT_FOLLOW`: a link
    /// in a folder's place is not followed out of the inbox.
    static let mask: UInt32 = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_MODIFY)
        | UInt32(IN_ATTRIB) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW)

    private var descriptor: Int32
    /// Room for a few hundred events a read; the kernel queues the rest (up to
    /// fs.inotify.max_queued_events, then one IN_Q_OVERFLOW).
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    public init() throws(InboxWatchError) {
        descriptor = try InotifyEventSource.makeInstance()
    }

    deinit {
        close(descriptor)
    }

    private static func makeInstance() throws(InboxWatchError) -> Int32 {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw .noInstance(reason: String(cString: strerror(errno))) }
        return descriptor
    }

    public func watch(folder path: String) throws(InboxWatchError) -> Int32 {
        let watch = SourcePath.withFileSystemPath(path) { inotify_add_watch(descriptor, $0, InotifyEventSource.mask) }
        guard watch >= 0 else {
            if errno == ENOSPC { throw .watchLimitReached }
            throw .cannotWatch(path: SourcePath.displayed(path), reason: String(cString: strerror(errno)))
        }
        return watch
    }

    public func reset() throws(InboxWatchError) {
        close(descriptor)
        descriptor = try InotifyEventSource.makeInstance()
    }

    public func waitForEvents(timeout: Duration, wakeDescriptor: Int32) -> [InboxEvent] {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 2, timeout.pollTimeout) > 0, descriptors[0].revents & Int16(POLLIN) != 0 else { return [] }
        var events: [InboxEvent] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            parse(count, into: &events)
        }
        return events
    }

    /// Each `struct inotify_event`: wd, mask, cookie, len (4 bytes each), then `len` bytes of
    /// NUL-padded name.
    private func parse(_ count: Int, into events: inout [InboxEvent]) {
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset + 16 <= count {
                let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = bytes[(offset + 16)..<min(count, offset + 16 + length)]
                let name = SourcePath.string(fromFileSystem: nameBytes.prefix { $0 != 0 })
                offset += 16 + length
                if let event = InotifyEventSource.event(watch: watch, mask: mask, name: name) { events.append(event) }
            }
        }
    }

    static func event(watch: Int32, mask: UInt32, name: String) -> InboxEvent? {
        func has(_ flag: Int32) -> Bool { mask & UInt32(flag) != 0 }
        if has(IN_Q_OVERFLOW) { return .overflow }
        if has(IN_IGNORED) || has(IN_DELETE_SELF) || has(IN_MOVE_SELF) || has(IN_UNMOUNT) { return .folderGone(folder: watch) }
        guard !name.isEmpty else { return nil }
        if has(IN_ISDIR) {
            return has(IN_CREATE) || has(IN_MOVED_TO) || has(IN_ATTRIB) ? .folderAppeared(folder: watch, name: name) : nil
        }
        if has(IN_CLOSE_WRITE) || has(IN_MOVED_TO) { return .written(folder: watch, name: name) }
        if has(IN_CREATE) || has(IN_MODIFY) { return .writing(folder: watch, name: name) }
        if has(IN_ATTRIB) { return .attributesChanged(folder: watch, name: name) }
        if has(IN_DELETE) || has(IN_MOVED_FROM) { return .removed(folder: watch, name: name) }
        return nil
    }
}
