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
        try files.entries(in: path).compactMap { entry -> Entry? in
            let type = entry.info.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFDIR else { return nil }
            return Entry(name: entry.name, isFolder: type == S_IFDIR, size: Int64(entry.info.st_size),
                         modified: Int64(entry.info.st_mtim.tv_sec) * 1_000_000_000 + Int64(entry.info.st_mtim.tv_nsec))
        }.sorted { $0.name < $1.name }
    }
}
