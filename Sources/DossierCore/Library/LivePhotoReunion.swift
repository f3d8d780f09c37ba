import Foundation

/// Brings a Live Photo's movie that was filed before its still (alone, under `videos/`: the
/// daemon took it in an earlier batch, or an earlier import had only the movie), or a raw filed
/// before its camera's JPEG (alone, under `photos/`, with its own rendition, which goes), beside the still
/// once the still is filed, under the same name, so the pair ends together whichever came first.
///
/// The movie is found in the index by Apple's content identifier, which both carry, whatever
/// their names and folders; else by its source path (the still's folder and name, `.MOV` or
/// `.mov`) when the two say they were taken within `CaptureDate.livePhotoWindow` of each other, so an unrelated
/// movie of the same name never is. It is checked to hold the bytes filed, then linked at its new
/// name, the index moved to it, and only then its old name removed. Stopped in between, the
/// library holds the same bytes under both names (one inode), never neither, and the still's next
/// import finishes the move. A still that has a movie beside it already keeps it.
struct LivePhotoReunion {
    let layout: LibraryLayout
    let index: any LibraryCatalog

    static let movieExtensions = ["MOV", "mov"]

    /// The movie's new path (relative to the root) when one was brought beside `still`, filed at
    /// `stillPath` (relative to the root); nil when there is none to bring.
    func bringMovie(besideStillAt stillPath: String, still: Photo, subject: Subject) throws -> String? {
        let folder = (still.source.path as NSString).deletingLastPathComponent
        let stem = (still.source.fileName as NSString).deletingPathExtension
        var candidates: [String] = []
        if let identifier = still.contentIdentifier {
            candidates += try index.filedFiles(contentIdentifier: identifier).map(\.path)
        }
        // A raw of the shot filed before its JPEG came, alone under its own name, joins it too.
        let raws = still.format.joinsItsStill ? [] : layout.photoFormats.all.filter(\.joinsItsStill).map(\.fileExtension)
        let names = (LivePhotoReunion.movieExtensions + raws.flatMap({ [$0.uppercased(), $0] })).map { "\(folder)/\(stem).\($0)" }
        candidates += try index.importedSources(atAnyOf: names).filter { earlier in
            earlier.subject == subject.path
                && IndexRebuilder.captureDate(fromName: earlier.filedPath)
                    .map { $0.isWithin(CaptureDate.livePhotoWindow, of: still.captureDate.dateTime) } == true
        }.map(\.filedPath)
        let filer = Filer(layout: layout, index: nil, dryRun: false)
        for moviePath in candidates {
            // A movie filed alone is under `videos/`, a raw alone under `photos/`; a movie already
            // beside a still (under `photos/`) stays where it is.
            let format = layout.photoFormats.format(forExtension: (moviePath as NSString).pathExtension)
            guard moviePath.hasPrefix("\(subject.path)/videos/") && format?.isVideo == true
                || moviePath.hasPrefix("\(subject.path)/photos/") && format?.joinsItsStill == true
            else { continue }
            guard let filed = try index.filedFile(at: moviePath), let digest = ContentDigest(hex: filed.sha256) else { continue }
            // A raw alone carries its own digest in its name; one beside another still carries
            // that still's, and stays with it.
            if format?.joinsItsStill == true, !LibraryLayout.nameCarries(digest, path: moviePath) { continue }
            let oldPath = try layout.url(forRelativePath: moviePath).path
            guard try filer.holdsSameBytes(oldPath, digest: digest) else { continue }
            let stillInSubject = String(stillPath.dropFirst(subject.path.count + 1))
            // The movie keeps the extension it was filed under: whatever its format, it is the same file.
            let newRelative = layout.besideStillPath(for: subject, stillPath: stillInSubject,
                                                        fileExtension: (moviePath as NSString).pathExtension)
            // Beside the still already: nothing to bring (and its one name must not be removed).
            guard newRelative != moviePath else { continue }
            let newPath = try layout.url(forRelativePath: newRelative).path
            // A run stopped after the link left the same bytes at the new name: finish its work.
            // Other bytes there are the still's own movie: this one stays where it is.
            if try layout.files.link(oldPath, to: newPath) == .nameTaken,
               try !filer.holdsSameBytes(newPath, digest: digest) {
                continue
            }
            do {
                try index.moveFiledFile(from: moviePath, to: newRelative)
            } catch {
                // The index still names the old file, which holds the bytes: the new name goes.
                try? layout.files.remove(newPath)
                throw error
            }
            try layout.files.remove(oldPath)
            // A raw alone had a rendition of its own; beside its JPEG it needs none (it is made
            // from the raw's bytes, which stay whole at the new name).
            if let format, format.hasRendition {
                for rendition in ["jpg", "png"] {
                    let old = (oldPath as NSString).deletingPathExtension + ".\(rendition)"
                    if layout.files.isFile(old) { try layout.files.remove(old) }
                }
            }
            return newRelative
        }
        return nil
    }
}
