import DossierCore
import Foundation

/// The regular files of one library folder with their sizes and modification times, read
/// through `LibraryFileSystem` (opened from the library's root without following a link) and
/// looked at relative to the open folder: a link in the folder is passed over, never followed.
struct FolderListing {
    struct Entry: Sendable, Equatable {
        let name: String
        let isFolder: Bool
        let size: Int64
        /// Nanoseconds since 1970: what tells the report a file changed without reading it.
        let modified: Int64
    }

    /// The entries of `path` (absolute, inside the library), in name order; none when the folder
    /// does not exist.
    static func entries(of path: String, in files: LibraryFileSystem) throws(LibraryError) -> [Entry] {
        let folder: Int32
        do {
            folder = try files.openFolder(path)
        } catch .missing {
            return []
        }
        guard let stream = fdopendir(folder) else {
            close(folder)
            throw .cannotRead(path: path, reason: .errno())
        }
        defer { closedir(stream) }
        var entries: [Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                SourcePath.string(fromFileSystem: raw.prefix(while: { $0 != 0 }))
            }
            guard name != ".", name != ".." else { continue }
            var info = stat()
            guard fstatat(dirfd(stream), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFDIR else { continue }
            entries.append(Entry(name: name, isFolder: type == S_IFDIR, size: Int64(info.st_size),
                                 modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)))
        }
        return entries.sorted { $0.name < $1.name }
    }
}
