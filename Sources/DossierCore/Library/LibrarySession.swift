import Foundation

/// A library opened for one run: for writing, its folders exist, the lock is held, staging is
/// clear and the index is open; for a dry run, nothing is created and the index (if any) is
/// read-only.
public struct LibrarySession: Sendable {
    public let index: LibraryIndex?
    /// Held for the session's lifetime; nil for a dry run.
    public let lock: LibraryLock?
    /// Where a damaged index was moved, when opened for a rebuild.
    public var movedAside: String?

    public static func open(_ layout: LibraryLayout, dryRun: Bool, waitForLock: Bool,
                     whileWaiting: (String) -> Void, movingDamagedIndexAside: Bool = false) throws(LibraryError) -> LibrarySession
    {
        if dryRun {
            return LibrarySession(index: try LibraryIndex.openReadOnly(layout), lock: nil)
        }
        let root = layout.root.path
        if !DurableFileSystem.isFolder(root) {
            do {
                try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            } catch {
                throw .cannotCreate(path: root, reason: error.localizedDescription)
            }
        }
        // SQLite opens its files by name, following links: they are checked before it does.
        try layout.files.checkNoLinks([layout.metadataFolder.path, layout.stagingFolder.path, layout.lockFile.path,
                                       layout.indexFile.path, layout.indexFile.path + "-journal"])
        try layout.files.createFolders(layout.stagingFolder.path)
        let lock = try LibraryLock.acquire(layout, wait: waitForLock, waiting: whileWaiting)
        try Filer.clearStaging(layout)
        try LibraryTimeZone.record(in: layout)
        var movedAside: String?
        if movingDamagedIndexAside && LibraryIndex.isDamaged(layout) {
            movedAside = try LibraryIndex.moveDamagedIndexAside(layout)
        }
        return LibrarySession(index: try LibraryIndex.open(layout), lock: lock, movedAside: movedAside)
    }

    /// Ends the session: the index is closed and the lock released, here and not whenever the
    /// last copy of the session goes.
    public func close() {
        index?.close()
        lock?.release()
    }
}
