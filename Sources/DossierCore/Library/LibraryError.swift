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

    /// Whether the library itself failed (its index, or its disk: read-only, full, not
    /// permitted), as opposed to one file in it: the import then stops with one line, since every
    /// other source would fail the same way.
    public var isAboutTheLibrary: Bool {
        switch self {
        case .index, .busy, .badConfiguration:
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
        }
    }
}
