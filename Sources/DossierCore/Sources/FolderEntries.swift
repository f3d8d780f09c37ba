import Glibc

/// The entries of one folder as `FolderWalk` (the walk of `import` and `watch`) reads them:
/// names as bytes, from `readdir` (never decoded and re-encoded, so a name that is not UTF-8
/// still leads back to its file), in name order, without `.` and `..`; what `SkippedNames` passes
/// over is marked, so a walk can say so.
public struct FolderEntries {
    public struct Entry {
        public let name: String
        public let path: String
        public let isFolder: Bool
        /// Why its name is passed over (`SkippedNames`); nil when it is taken.
        public let passedOver: (code: String, reason: String)?
    }

    /// The folder's entries a walk takes; nil when it cannot be listed (`errno` says why).
    public static func read(_ folder: String) -> [Entry]? {
        guard let stream = SourcePath.withFileSystemPath(folder, { opendir($0) }) else { return nil }
        var names: [(String, UInt8)] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { SourcePath.string(fromCString: $0) }
            }
            if name != "." && name != ".." { names.append((name, entry.pointee.d_type)) }
        }
        closedir(stream)
        return names.sorted { $0.0 < $1.0 }.map { name, type in
            let path = folder == "/" ? "/\(name)" : "\(folder)/\(name)"
            // A file system that does not say an entry's type (DT_UNKNOWN) is asked, without
            // following a link: a link is walked as a file, never as the folder it leads to.
            let isFolder = type == UInt8(DT_DIR)
                || (type == UInt8(DT_UNKNOWN) && SourcePath.status(path, followingLinks: false).map { $0.st_mode & S_IFMT == S_IFDIR } == true)
            return Entry(name: name, path: path, isFolder: isFolder, passedOver: SkippedNames.whyPassedOver(name, isFolder: isFolder))
        }
    }
}
