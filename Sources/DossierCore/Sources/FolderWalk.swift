import Glibc

/// The one walk of a folder tree, for `import` (`SourceDiscovery`) and `watch` (`InboxWatcher`):
/// each folder read with `FolderEntries` (the same names passed over), in name order, depth
/// first; a Dossier library met on the way never entered (the one filed into, seen through a
/// second mount, or another one), nor a Dossier report's site (`SkippedNames.reportSiteMark`);
/// links never followed into folders, so no cycle can make it endless. What each caller does
/// with a file (stat it, settle it) is its own.
public struct FolderWalk {
    public enum Event {
        /// A folder about to be read; `watch` watches it first, so a file put in while it is
        /// read is either listed or seen as an event. Answering false leaves it unread.
        case entering(folder: String)
        /// A library met while walking, left alone: `isTheLibrary` when it is the one filed into.
        case passedOver(library: String, isTheLibrary: Bool)
        /// A folder that could not be listed, and the errno that says why.
        case unreadable(folder: String, errno: Int32)
        /// Anything in a folder that is not a folder: a file, a link, a device.
        case file(FolderEntries.Entry)
        /// A file or folder whose name is passed over (`SkippedNames`): hidden, a tool's, still
        /// being written. A folder of them is not walked.
        case passedOverName(FolderEntries.Entry)
    }

    /// The library filed into, passed over wherever it shows.
    public let library: LibraryBoundary?
    /// Read once a walk: a folder that is a mount point may show a library, or a folder of one.
    public let mounts: MountTable

    public init(library: LibraryBoundary?, mounts: MountTable) {
        self.library = library
        self.mounts = mounts
    }

    /// Walks `folder` (known to be a folder; `info` its status, when the caller has it) and the
    /// folders below it, telling `visit` what it meets. `visit`'s answer matters only for
    /// `entering`.
    public func walk(_ folder: String, info: stat? = nil, _ visit: (Event) -> Bool) {
        if let isTheLibrary = LibraryBoundary.libraryKind(of: folder, info: info, library: library, mounts: mounts) {
            _ = visit(.passedOver(library: folder, isTheLibrary: isTheLibrary))
            return
        }
        if let why = SkippedNames.whyPassedOver(folder: folder) {
            let name = String(folder.split(separator: "/").last ?? "")
            _ = visit(.passedOverName(FolderEntries.Entry(name: name, path: folder, isFolder: true, passedOver: why)))
            return
        }
        guard visit(.entering(folder: folder)) else { return }
        guard let entries = FolderEntries.read(folder) else {
            let code = errno
            _ = visit(.unreadable(folder: folder, errno: code))
            return
        }
        for entry in entries {
            if entry.passedOver != nil {
                _ = visit(.passedOverName(entry))
            } else if entry.isFolder {
                walk(entry.path, visit)
            } else {
                _ = visit(.file(entry))
            }
        }
    }
}
