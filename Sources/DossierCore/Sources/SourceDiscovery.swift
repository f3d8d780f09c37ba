import Foundation

/// Walks the paths a user named and lists the files under them, in a stable order.
///
/// Hidden files and folders (a leading `.`) are passed over, each said once (`passedOverName`):
/// they are file-system and tool clutter (`.DS_Store`, `._IMG_0001.JPG`, `.dossier`), never a
/// user's photos or notes.
/// Symbolic links met while walking are followed only to a file inside the folder named
/// (`SourceLink`): never to a folder, so a link cycle cannot make the walk endless, and never
/// out of it; a link named itself is followed. A FIFO, socket or device is found, never opened
/// (`NotARegularFile`).
public struct SourceDiscovery: Sendable {
    /// The library being imported into: never walked, and refused when named.
    public var library: LibraryBoundary?

    public init(library: LibraryBoundary? = nil) {
        self.library = library
    }

    public enum Found: Sendable, Equatable {
        case file(SourceFile)
        /// A named path that could not be read; the import goes on with the others.
        case unreadable(path: String, reason: String)
        /// A Dossier library met while walking, left alone: `isTheLibrary` when it is the one
        /// being imported into (seen through a second mount, say), else another one.
        case passedOver(library: String, isTheLibrary: Bool)
        /// A file or folder whose name is passed over (hidden, a tool's, still being written),
        /// with `SkippedNames`' code and reason: said, never imported.
        case passedOverName(path: String, code: String, reason: String)
        /// A FIFO, a socket or a device (`NotARegularFile`), and what it is: said, never opened.
        case notRegularFile(path: String, kind: String)
    }

    /// Each name of a file once, even when named twice or reached through two named folders;
    /// two names of one file (hard links) are two sources.
    public func discover(_ paths: [String]) -> [Found] {
        var walk = Walk(mounts: MountTable.current())
        for path in paths {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            if let library, library.contains(absolute, mounts: walk.mounts) {
                walk.found.append(.unreadable(path: absolute, reason: "it is inside the library \(library.realRoot ?? ""); "
                    + "Dossier never imports its own library (to re-index it, run `dossier index rebuild`)"))
                continue
            }
            self.walk(absolute, named: true, under: absolute, into: &walk)
        }
        let found = walk.found
        var seen = Set<String>()
        return found.filter { entry in
            switch entry {
            case .file(let source): return seen.insert(source.path).inserted
            case .unreadable(let path, _), .passedOver(let path, _), .passedOverName(let path, _, _), .notRegularFile(let path, _):
                return seen.insert(path).inserted
            }
        }
    }

    /// What a walk found so far, and what it goes by.
    private struct Walk {
        /// Read once a walk: a folder that is a mount point may show a library, or a folder of one.
        let mounts: MountTable
        var found: [Found] = []
        /// Each name found, as its folder's device and inode and the name in it: one reached twice
        /// (a folder named and a link to it, both on the command line) is one source, not a second
        /// that `--move` finds gone. Two names of one file are two sources, each said and routed
        /// by its own path: hard links in two subjects' folders file the photo under each, and a
        /// link followed to a file of the folder is a source beside the file (`--move` removes
        /// each name once its bytes are filed).
        var names: Set<Name> = []
        /// The device and inode of each folder walked into, by its path.
        var folders: [String: FileIdentity] = [:]

        struct Name: Hashable {
            let folder: FileIdentity
            let name: String
        }

        /// Adds `source`, unless its name in `folder` (the device and inode of the folder holding
        /// it, when known) was found already.
        mutating func add(_ source: SourceFile, in folder: FileIdentity?) {
            guard let folder else { return found.append(.file(source)) }
            if names.insert(Name(folder: folder, name: (source.path as NSString).lastPathComponent)).inserted {
                found.append(.file(source))
            }
        }
    }

    /// `root` is the path the user named: folder names are read for routing only below it, and a
    /// link met while walking it is followed only to a file inside it (`SourceLink`).
    private func walk(_ path: String, named: Bool, under root: String, into walk: inout Walk) {
        guard named else {
            // Met while walking: a file, or a link judged (never followed into a folder, so no
            // cycle can make the walk endless); a device or a FIFO is said, never opened.
            guard var source = SourceFile.met(at: path, walking: root, namedFolder: root) else {
                if let kind = NotARegularFile.kind(at: path) { walk.found.append(.notRegularFile(path: path, kind: kind)) }
                return
            }
            if source.link == .followed, let library, library.contains(path, mounts: walk.mounts) {
                source.link = .refused(reason: "it is a link to a file of the library \(library.realRoot ?? ""); "
                    + "Dossier never imports its own library")
            }
            walk.add(source, in: walk.folders[parent(of: path)])
            return
        }
        // A named path may be a link the user means: it is followed.
        let takenAt = SourceFile.clock()
        guard let info = SourcePath.status(path) else {
            walk.found.append(.unreadable(path: path, reason: String(cString: strerror(errno))))
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            FolderWalk(library: library, mounts: walk.mounts).walk(path, info: info) { event in
                switch event {
                case .entering(let folder):
                    walk.folders[folder] = SourcePath.status(folder).map(FileIdentity.init)
                    return true
                case .passedOver(let folder, let isTheLibrary):
                    walk.found.append(.passedOver(library: folder, isTheLibrary: isTheLibrary))
                case .unreadable(let folder, let code):
                    walk.found.append(.unreadable(path: folder, reason: "cannot list folder: \(String(cString: strerror(code)))"))
                case .file(let entry):
                    self.walk(entry.path, named: false, under: root, into: &walk)
                case .passedOverName(let entry):
                    if let why = entry.passedOver {
                        walk.found.append(.passedOverName(path: entry.path, code: why.code, reason: why.reason))
                    }
                }
                return false
            }
        case S_IFREG:
            let isLink = SourcePath.status(path, followingLinks: false).map { $0.st_mode & S_IFMT == S_IFLNK } == true
            walk.add(SourceFile(path: path, info: info, namedFolder: parent(of: path), link: isLink ? .followed : nil, statusTakenAt: takenAt),
                     in: SourcePath.status(parent(of: path)).map(FileIdentity.init))
        default:
            walk.found.append(.notRegularFile(path: path, kind: NotARegularFile.kind(of: info) ?? "a special file"))
        }
    }

    private func parent(of path: String) -> String {
        (path as NSString).deletingLastPathComponent
    }
}
