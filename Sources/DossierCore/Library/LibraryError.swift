import Foundation

/// Problems with the library folder itself (as opposed to a source).
public enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    case pathOutsideLibrary(String)
    case busy(library: String, holder: String)
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case index(path: String, reason: String)
    /// A symbolic link inside the library, where Dossier refuses to follow one.
    case symbolicLink(path: String)
    case missing(path: String)
    case cannotRead(path: String, reason: String)
    /// A settings file of the library (`config/library.json`) that cannot be used as it is.
    case badConfiguration(path: String, reason: String)
    /// Nothing of a library at the path (a typo, a drive not mounted, a library moved away).
    case noLibrary(path: String)
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
        case .index, .busy, .badConfiguration, .noLibrary, .otherLibrary, .indexOfAnotherLibrary:
            return true
        case .cannotWrite(_, let reason), .cannotCreate(_, let reason):
            return [EROFS, ENOSPC, EDQUOT, EACCES, EPERM, EIO].contains { reason.hasSuffix(errnoMessage($0)) }
        case .pathOutsideLibrary, .symbolicLink, .missing, .cannotRead:
            return false
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
        case .otherLibrary(let path, let expected, let found):
            let what = found.map { "another library (id \($0.prefix(8)))" } ?? "a library without an id"
            return "\(path) now holds \(what), not the library this started with (id \(expected.prefix(8)))"
        case .indexOfAnotherLibrary(let path, let indexID, let libraryID):
            return "the index \(path) was made for another library (id \(indexID.prefix(8)); this library's id is "
                + "\(libraryID.prefix(8))); run `dossier index rebuild` to build this library's own from its folders"
        }
    }
}
