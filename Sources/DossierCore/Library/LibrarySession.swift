import Foundation

/// A library opened for one run: for writing, it is the library asked for (by its id), its
/// folders exist, the lock is held, staging is clear and the index (this library's own, rebuilt
/// from the folders if it was missing) is open; for a dry run, nothing is created and the index
/// (if any) is read-only.
public struct LibrarySession: Sendable {
    public let index: LibraryIndex?
    /// Held for the session's lifetime; nil for a dry run.
    public let lock: LibraryLock?
    /// Who the library is; nil for a dry run into a library not made yet (or made before ids).
    public let identity: LibraryIdentity?
    /// What opening it did that a person should hear of.
    public var notices: [LibraryNotice] = []
    /// Where a damaged index (or one made for another library) was moved, when opened for a rebuild.
    public var movedAside: String?

    /// Which library a command may open.
    public enum Access: Sendable, Equatable {
        /// The one at the path, made there if there is none (and none lies above or below it):
        /// the first `dossier import` or `dossier subjects add` into a folder, and `dossier init`.
        case creatingIfAbsent
        /// The one at the path if there is one, and none made where there is none: an import
        /// whose paths gave no file to read (a typo, a folder of nothing) leaves no empty library
        /// behind. Where there is none, the session has no index and no lock.
        case existingIfAny
        /// Only one that exists: a typo or an unmounted drive is refused, never made a library.
        case existing
        /// Only the library with this id (`dossier watch`, which files into the library it
        /// started with and waits while another, or none, is at its path).
        case expecting(id: String)
    }

    public static func open(_ layout: LibraryLayout, access: Access, dryRun: Bool, waitForLock: Bool,
                            whileWaiting: (String) -> Void,
                            forRebuild: Bool = false) throws(LibraryError) -> LibrarySession
    {
        let root = layout.root.path
        let found = try LibraryIdentity.state(of: layout)
        if access == .existingIfAny, !found.isIdentified {
            return LibrarySession(index: nil, lock: nil, identity: nil)
        }
        try check(found, against: access, at: root)
        if access == .creatingIfAbsent, !found.isIdentified {
            // Looked at once, before anything is made (the folders below are walked).
            try LibraryBoundary.checkNoOtherLibrary(around: root)
        }
        if dryRun {
            guard case .identified(let identity) = found else {
                return LibrarySession(index: try LibraryIndex.openReadOnly(layout), lock: nil, identity: nil)
            }
            return LibrarySession(index: try LibraryIndex.openReadOnly(layout, identity: identity), lock: nil, identity: identity)
        }
        if !DurableFileSystem.isFolder(root) {
            do {
                try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            } catch {
                throw .cannotCreate(path: root, reason: .of(error))
            }
        }
        // SQLite opens its files by name, following links: they are checked before it does.
        try layout.files.checkNoLinks([layout.metadataFolder.path, layout.stagingFolder.path, layout.lockFile.path,
                                       layout.indexFile.path, layout.indexFile.path + "-journal",
                                       layout.root.appendingPathComponent(LibraryIdentity.relativePath).path])
        try layout.files.createFolders(layout.stagingFolder.path)
        let lock = try LibraryLock.acquire(layout, wait: waitForLock, waiting: whileWaiting)
        do {
            // Read again under the lock: another first import may have made it meanwhile. (The
            // folders made for the lock do not make an absent library one from before ids.)
            let reread = try LibraryIdentity.state(of: layout)
            let state: LibraryIdentity.State
            if case .identified = reread { state = reread } else { state = found }
            try check(state, against: access, at: root)
            try Filer.clearStaging(layout)
            try LibraryTimeZone.record(in: layout)
            var session = try openIndex(layout, state: state, forRebuild: forRebuild, lock: lock)
            // A removal or move a kill stopped part way is undone or finished before anything else.
            if let index = session.index {
                let (undone, finished) = try FiledItemMover.finishInterrupted(layout, index: index)
                if undone + finished > 0 {
                    session.notices.append(.takingOutFinished(path: root, undone: undone, finished: finished))
                }
            }
            if case .absent = state, let identity = session.identity {
                session.notices.insert(.created(path: root, id: identity.id), at: 0)
            }
            return session
        } catch {
            lock.release()
            throw error
        }
    }

    /// Refuses what `access` does not allow before anything is written.
    private static func check(_ state: LibraryIdentity.State, against access: Access, at root: String) throws(LibraryError) {
        switch (state, access) {
        case (.absent, .existing), (.absent, .expecting):
            throw .noLibrary(path: root)
        case (.unidentified, .existing):
            // A dump sorted into pets/<id>/ given as --library by mistake is not given an id.
            throw .noLibraryID(path: root)
        case (.unidentified, .expecting(let expected)):
            throw .otherLibrary(path: root, expected: expected, found: nil)
        case (.identified(let identity), .expecting(let expected)) where identity.id != expected:
            throw .otherLibrary(path: root, expected: expected, found: identity.id)
        default:
            return
        }
    }

    /// Opens this library's index: a missing one is made and filled from the folders (unless the
    /// library is new), one made for another library is moved aside and rebuilt, and a library
    /// from before ids takes its index's id (or a new one). `forRebuild` (`dossier index
    /// rebuild`): a damaged index is moved aside too, and the caller fills the new one.
    private static func openIndex(_ layout: LibraryLayout, state: LibraryIdentity.State, forRebuild: Bool,
                                  lock: LibraryLock) throws(LibraryError) -> LibrarySession {
        let root = layout.root.path
        var notices: [LibraryNotice] = []
        var movedAside: String?
        if forRebuild && LibraryIndex.isDamaged(layout) {
            movedAside = try LibraryIndex.moveIndexAside(layout, calling: "damaged")
        }
        let hadIndex = layout.files.isFile(layout.indexFile.path)
        let identity: LibraryIdentity
        switch state {
        case .identified(let known):
            identity = known
        case .unidentified:
            let earlier = hadIndex ? try LibraryIndex.openReadOnly(layout) : nil
            let id = try earlier?.libraryID()
            earlier?.close()
            identity = id.map { LibraryIdentity(id: $0) } ?? LibraryIdentity()
            try identity.write(in: layout)
            notices.append(.identified(path: root, id: identity.id))
        case .absent:
            identity = LibraryIdentity()
            try identity.write(in: layout)
        }
        var index: LibraryIndex
        var rebuildReason: LibraryNotice.IndexRebuildReason?
        do {
            index = try LibraryIndex.open(layout, identity: identity)
        } catch .indexOfAnotherLibrary(_, let other, _) {
            let aside = try LibraryIndex.moveIndexAside(layout, calling: "other-library")
            if forRebuild { movedAside = aside }
            index = try LibraryIndex.open(layout, identity: identity)
            rebuildReason = .madeForAnotherLibrary(id: other, movedTo: aside ?? layout.indexFile.path)
        }
        if !hadIndex, state != .absent { rebuildReason = .missing }
        if let rebuildReason, !forRebuild {
            do {
                let rebuilt = try IndexRebuilder(layout: layout).rebuild(into: index)
                notices.append(.indexRebuilt(path: root, reason: rebuildReason, photos: rebuilt.photos, recordFiles: rebuilt.recordFiles,
                                             misnamed: rebuilt.misnamed.count))
                notices += rebuilt.otherLibraries.map { .otherLibraryPassedOver(path: root, folder: $0) }
            } catch {
                index.close()
                throw error as? LibraryError ?? .index(path: layout.indexFile.path, reason: "\(error)")
            }
        }
        return LibrarySession(index: index, lock: lock, identity: identity, notices: notices, movedAside: movedAside)
    }

    /// Ends the session: the index is closed and the lock released, here and not whenever the
    /// last copy of the session goes.
    public func close() {
        index?.close()
        lock?.release()
    }
}
