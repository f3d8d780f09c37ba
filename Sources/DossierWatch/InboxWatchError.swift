/// Why a folder could not be watched.
public enum InboxWatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `inotify_add_watch` said ENOSPC: the user's inotify watches are used up.
    case watchLimitReached
    /// No inotify instance could be made (EMFILE: too many instances for the user).
    case noInstance(reason: String)
    /// The folder could not be watched for another reason (gone, unreadable).
    case cannotWatch(path: String, reason: String)

    public var description: String {
        switch self {
        case .watchLimitReached:
            return "the inotify watch limit is reached; raise it with "
                + "`sudo sysctl fs.inotify.max_user_watches=524288` (and in /etc/sysctl.d/ to keep it)"
        case .noInstance(let reason):
            return "inotify is not available (\(reason)); raise fs.inotify.max_user_instances, or give --poll"
        case .cannotWatch(let path, let reason):
            return "cannot watch \(path): \(reason)"
        }
    }
}
