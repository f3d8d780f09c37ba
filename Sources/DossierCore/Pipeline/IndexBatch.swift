import Foundation
import Synchronization

/// The index rows of photos settled but not yet committed: a commit is four syncs of the index
/// (its journal and its pages, twice), and photos come by the thousand, so theirs are committed
/// `size` sources at a time, and whatever is left when the run ends. Only photos and movies
/// filed by copy wait here: a text source's rows (its year files, its kept copy) and a source
/// about to be removed (its departure) are committed at once, after those waiting; so is the
/// batch before a still looks in the index for its Live Photo's movie filed before it
/// (`mayHoldMovie`).
///
/// A run stopped before its last commit leaves filed files the index does not name: the next
/// import finds each at its name with the same bytes and records it then (`Filer`'s adopted).
/// Settling goes one source at a time, and asks here before the index (`filedFile`), so a
/// photo settled a moment ago is known as if it were committed.
final class IndexBatch: Sendable {
    /// Sources a commit. Measured (docs/performance.md, "Files filed as they are"): a commit a
    /// source was a quarter of the time of filing 200 files as they are.
    static let size = 64

    private let waiting = Mutex<[PhotoRows]>([])

    var isEmpty: Bool { waiting.withLock { $0.isEmpty } }

    /// Adds a photo's rows; true when the batch is full and should be committed.
    func add(_ rows: PhotoRows) -> Bool {
        waiting.withLock {
            $0.append(rows)
            return $0.count >= IndexBatch.size
        }
    }

    /// A file of `subject` with these bytes, among the rows waiting.
    func filedFile(for subject: Subject, digest: ContentDigest) -> FiledFile? {
        waiting.withLock { entries in
            entries.lazy.flatMap(\.filed).first { $0.subject == subject.path && $0.sha256 == digest.hex }
        }
    }

    /// Whether a movie of `still`'s may be waiting: one with its content identifier, or one from
    /// its folder under its name (the reunion's two ways of finding it, `LivePhotoReunion`).
    func mayHoldMovie(of still: Photo) -> Bool {
        let stem = (still.source.path as NSString).deletingPathExtension
        let moviePaths = Set(LivePhotoReunion.movieExtensions.map { "\(stem).\($0)" })
        return waiting.withLock { entries in
            entries.contains { entry in
                entry.filed.contains { $0.contentIdentifier != nil && $0.contentIdentifier == still.contentIdentifier }
                    || entry.source.map { moviePaths.contains($0.path) } == true
            }
        }
    }

    /// Commits the rows waiting, in one transaction; they stay waiting if it fails. Held while it
    /// commits: a still's commit (from a working thread) and settling's are one at a time.
    func commit(into index: any LibraryCatalog) throws(LibraryError) {
        try waiting.withLock { (entries) throws(LibraryError) in
            guard !entries.isEmpty else { return }
            try index.record(photos: entries)
            entries.removeAll()
        }
    }
}
