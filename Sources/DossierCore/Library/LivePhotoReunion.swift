import Foundation

/// Brings a Live Photo's movie that was filed before its still (alone, under `videos/`: the
/// daemon took it in an earlier batch, or an earlier import had only the movie) beside the still
/// once the still is filed, under the same name, so the pair ends together whichever came first.
///
/// The movie is found in the index by its source path (the still's folder and name, `.MOV` or
/// `.mov`), checked to hold the bytes filed, then linked at its new name, the index moved to it,
/// and only then its old name removed. Stopped in between, the library holds the same bytes under
/// both names (one inode), never neither, and the still's next import finishes the move.
struct LivePhotoReunion {
    let layout: LibraryLayout
    let index: any LibraryCatalog

    static let movieExtensions = ["MOV", "mov"]

    /// The movie's new path (relative to the root) when one was brought beside the still filed
    /// at `stillPath` (relative to the root) from `stillSource`; nil when there is none to bring.
    func bringMovie(besideStillAt stillPath: String, from stillSource: SourceFile, subject: Subject) throws -> String? {
        let folder = (stillSource.path as NSString).deletingLastPathComponent
        let stem = (stillSource.fileName as NSString).deletingPathExtension
        let filer = Filer(layout: layout, index: nil, dryRun: false)
        for ext in LivePhotoReunion.movieExtensions {
            for earlier in try index.importedSources(at: "\(folder)/\(stem).\(ext)")
            where earlier.subject == subject.path && earlier.filedPath.hasPrefix("\(subject.path)/videos/") {
                guard let filed = try index.filedFile(at: earlier.filedPath), let digest = ContentDigest(hex: filed.sha256)
                else { continue }
                let oldPath = try layout.url(forRelativePath: earlier.filedPath).path
                guard try filer.holdsSameBytes(oldPath, digest: digest) else { continue }
                let stillInSubject = String(stillPath.dropFirst(subject.path.count + 1))
                // The movie keeps the extension it was filed under: whatever its format, it is the same file.
                let newRelative = layout.livePhotoMoviePath(for: subject, stillPath: stillInSubject,
                                                            fileExtension: (earlier.filedPath as NSString).pathExtension)
                let newPath = try layout.url(forRelativePath: newRelative).path
                // A run stopped after the link left the same bytes at the new name: finish its work.
                if try layout.files.link(oldPath, to: newPath) == .nameTaken,
                   try !filer.holdsSameBytes(newPath, digest: digest) {
                    continue
                }
                do {
                    try index.moveFiledFile(from: earlier.filedPath, to: newRelative)
                } catch {
                    // The index still names the old file, which holds the bytes: the new name goes.
                    try? layout.files.remove(newPath)
                    throw error
                }
                try layout.files.remove(oldPath)
                return newRelative
            }
        }
        return nil
    }
}
