/// Something opening a library did that the person running Dossier should hear of, once:
/// the terminal prints it, the daemon logs it.
public enum LibraryNotice: Sendable, Equatable, CustomStringConvertible {
    /// A new library was made (the first `dossier import` or `subjects add` into a folder, or `dossier init`).
    case created(path: String, id: String)
    /// A library made before libraries had ids was given one.
    case identified(path: String, id: String)
    /// The index was missing, or made for another library, and was built anew from the folders
    /// before anything was filed (so nothing already filed is filed a second time).
    /// `misnamed`: filed files whose bytes are not the ones their names were made from (damaged).
    case indexRebuilt(path: String, reason: IndexRebuildReason, photos: Int, recordFiles: Int, misnamed: Int)
    /// A folder among the library's filed files holds another library (`folder`, relative to
    /// the root): rebuilding the index passed it over whole, indexing none of its files.
    case otherLibraryPassedOver(path: String, folder: String)

    /// Photos `dossier verify` found damaged or missing are filed again from their good copies
    /// in this run, before anything else.
    case mending(path: String, count: Int)
    /// A dry run does not file again what `verify` noted; the real run would, first.
    case wouldMend(path: String, count: Int)
    /// A photo `verify` found damaged or missing cannot be filed again: its good copy is gone, or
    /// no longer holds the bytes the photo was filed from, or its subject is no longer there.
    case cannotMend(path: String, reason: String)
    /// A photo filed again from its good copy still does not hold the bytes that were filed: the
    /// filing failed (and said why), or the good copy changed since `verify` saw it.
    case notMended(path: String, goodCopy: String)
    /// A `dossier remove` or `dossier move` was stopped part way: one stopped before it changed
    /// the index was undone (`undone` items), one stopped after it finished (`finished` items).
    case takingOutFinished(path: String, undone: Int, finished: Int)

    public enum IndexRebuildReason: Sendable, Equatable {
        case missing
        /// It was made for the library with this id; moved aside to `movedTo`, never deleted.
        case madeForAnotherLibrary(id: String, movedTo: String)
    }

    public var description: String {
        switch self {
        case .created(let path, let id):
            return "created library at \(path) (id \(id.prefix(8)))"
        case .identified(let path, let id):
            return "the library at \(path), made by an earlier Dossier, now has its id (\(id.prefix(8)))"
        case .otherLibraryPassedOver(let path, let folder):
            return "\(path)/\(folder) holds another Dossier library: passed over, none of its files indexed as this "
                + "library's; move it out of this library's folders"
        case .mending(let path, let count):
            return "the library at \(path): filing again \(count) damaged or missing \(count == 1 ? "photo" : "photos") "
                + "that `dossier verify` found, from \(count == 1 ? "its good copy" : "their good copies")"
        case .wouldMend(let path, let count):
            return "the library at \(path): the import would first file again \(count) damaged or missing "
                + "\(count == 1 ? "photo" : "photos") that `dossier verify` found (not shown in this dry run)"
        case .cannotMend(let path, let reason):
            return "\(path) was found damaged or missing by `dossier verify`, and \(reason): "
                + "it cannot be filed again; `dossier verify` says what is still wrong"
        case .notMended(let path, let goodCopy):
            return "\(path) was filed again from \(goodCopy), and still does not hold the bytes that were filed "
                + "(the filing failed, or that copy has changed since): `dossier verify` says what is still wrong"
        case .takingOutFinished(let path, let undone, let finished):
            let parts = [undone == 0 ? nil : "\(undone) stopped before it changed the index \(undone == 1 ? "was" : "were") undone",
                         finished == 0 ? nil : "\(finished) stopped after it \(finished == 1 ? "was" : "were") finished"].compactMap { $0 }
            return "the library at \(path): a `dossier remove` or `dossier move` was stopped part way; "
                + parts.joined(separator: ", ") + " (nothing was lost)"
        case .indexRebuilt(let path, let reason, let photos, let recordFiles, let misnamed):
            let why: String
            switch reason {
            case .missing:
                why = "its index was missing"
            case .madeForAnotherLibrary(let id, let movedTo):
                why = "its index was made for another library (id \(id.prefix(8)); moved aside to \(movedTo))"
            }
            return "the library at \(path): \(why); rebuilt it from the folders before filing anything "
                + "(\(photos) \(photos == 1 ? "photo" : "photos"), \(recordFiles) \(recordFiles == 1 ? "year file" : "year files") of records)"
                + (misnamed == 0 ? "" : "; \(misnamed) filed \(misnamed == 1 ? "file's bytes do" : "files' bytes do") not match "
                    + "\(misnamed == 1 ? "its name" : "their names"), damaged: `dossier verify` lists them")
        }
    }
}
