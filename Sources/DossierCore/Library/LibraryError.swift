import Foundation

/// Problems with the library folder itself (as opposed to a source).
public enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    case pathOutsideLibrary(String)
    case busy(library: String, holder: String)
    case cannotCreate(path: String, reason: FailureCause)
    case cannotWrite(path: String, reason: FailureCause)
    /// The index (SQLite) failed.
    case index(path: String, reason: FailureCause)
    /// A line of a year file is no record line: the library's own file is damaged.
    case damagedYearFile(path: String, line: Int, reason: String)
    /// A symbolic link inside the library, where Dossier refuses to follow one.
    case symbolicLink(path: String)
    case missing(path: String)
    case cannotRead(path: String, reason: FailureCause)
    /// A settings file of the library (`config/library.json`) that cannot be used as it is.
    case badConfiguration(path: String, reason: String)
    /// Nothing of a library at the path (a typo, a drive not mounted, a library moved away).
    case noLibrary(path: String)
    /// Something like a library at the path (`pets/` or `children/` folders, an index) but no
    /// library id: a photo dump sorted into `pets/<id>/`, or a library made before ids. Only
    /// `dossier init`, `import` and `subjects add` make a folder a library; every other command
    /// refuses it, so a dump given as `--library` by mistake never becomes one.
    case noLibraryID(path: String)
    /// A library would be made inside another library's folders (`other` above `path`), or
    /// around one (`other` below): the outer one's `index rebuild` and `verify` would take the
    /// inner one's index, lock and settings for its own files.
    case nestedLibrary(path: String, other: String, otherIsAbove: Bool)
    /// Another library than the one expected is at the path (`dossier watch` files into the
    /// library it started with, and no other); `found` is nil for one without an id.
    case otherLibrary(path: String, expected: String, found: String?)
    /// The index was made for another library: copied in from one, or left behind when this
    /// library's folders were put in place of another's.
    case indexOfAnotherLibrary(path: String, indexID: String, libraryID: String)

    /// Whether the library itself failed (its index, or its disk: read-only, full, not
    /// permitted), as opposed to one file in it: the import then stops with one line, since every
    /// other source would fail the same way.
    public var isAboutTheLibrary: Bool {
        switch self {
        case .index, .damagedYearFile, .busy, .badConfiguration, .noLibrary, .noLibraryID, .nestedLibrary, .otherLibrary,
             .indexOfAnotherLibrary:
            return true
        case .cannotWrite(_, let reason), .cannotCreate(_, let reason):
            return reason.errno.map { [EROFS, ENOSPC, EDQUOT, EACCES, EPERM, EIO].contains($0) } ?? false
        case .pathOutsideLibrary, .symbolicLink, .missing, .cannotRead:
            return false
        }
    }

    /// A stable name for the kind of failure, for programs (logs, `--json`) that must not parse
    /// the words.
    public var code: String {
        switch self {
        case .pathOutsideLibrary: "path-outside-library"
        case .busy: "busy"
        case .cannotCreate: "cannot-create"
        case .cannotWrite: "cannot-write"
        case .index: "index"
        case .damagedYearFile: "damaged-year-file"
        case .symbolicLink: "symbolic-link"
        case .missing: "missing"
        case .cannotRead: "cannot-read"
        case .badConfiguration: "bad-configuration"
        case .noLibrary: "no-library"
        case .noLibraryID: "no-library-id"
        case .nestedLibrary: "nested-library"
        case .otherLibrary: "other-library"
        case .indexOfAnotherLibrary: "index-of-another-library"
        }
    }

    /// What the layer below said, with its code (errno, SQLite's), when it said anything.
    public var cause: FailureCause? {
        switch self {
        case .cannotCreate(_, let reason), .cannotWrite(_, let reason), .index(_, let reason), .cannotRead(_, let reason):
            return reason
        default:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .pathOutsideLibrary(let path):
            return "refused to use '\(path)': it would lie outside the library"
        case .busy(let library, let holder):
            return "the library \(library) is busy: another dossier import is running (\(holder)); "
                + "try again when it has finished, or leave out --no-wait to wait for it"
        case .cannotCreate(let path, let reason):
            return "cannot create \(path): \(reason)"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .index(let path, let reason):
            return "the library index \(path) failed: \(reason)"
        case .damagedYearFile(let path, let line, let reason):
            return "\(path), line \(line), is damaged: \(reason)"
        case .symbolicLink(let path):
            return "\(path) is a symbolic link inside the library; Dossier never follows links there "
                + "(they could lead its writes and deletes outside it): replace it with a real folder or file"
        case .missing(let path):
            return "\(path) does not exist"
        case .cannotRead(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .badConfiguration(let path, let reason):
            return "\(path): \(reason)"
        case .noLibrary(let path):
            return "there is no library at \(path) (if it is on a drive, is the drive mounted?); "
                + "make one with `dossier init \(path)`, or give --library or DOSSIER_LIBRARY"
        case .noLibraryID(let path):
            return "\(path) holds no library id (.dossier/library.json), so it is not a library: folders named pets/ or "
                + "children/ (or an index) do not make one, and only `dossier init`, `dossier import` and `dossier subjects add` "
                + "make one. If it is meant to be a library (one made by an earlier Dossier, or a folder to file into), "
                + "run `dossier init \(path)`; else give the library's path with --library or DOSSIER_LIBRARY"
        case .nestedLibrary(let path, let other, let otherIsAbove):
            let place = otherIsAbove ? "it lies inside the library \(other)" : "it holds the library \(other)"
            let instead = otherIsAbove ? "make it outside that library" : "use that library, or make this one where no library is"
            return "refused to make a library at \(path): \(place), and a library inside another would have its index, lock "
                + "and settings taken for the outer one's files; \(instead)"
        case .otherLibrary(let path, let expected, let found):
            let what = found.map { "another library (id \($0.prefix(8)))" } ?? "a library without an id"
            return "\(path) now holds \(what), not the library this started with (id \(expected.prefix(8)))"
        case .indexOfAnotherLibrary(let path, let indexID, let libraryID):
            return "the index \(path) was made for another library (id \(indexID.prefix(8)); this library's id is "
                + "\(libraryID.prefix(8))); run `dossier index rebuild` to build this library's own from its folders"
        }
    }
}
