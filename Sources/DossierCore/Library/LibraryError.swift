/// Problems with the library folder itself (as opposed to a source).
public enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    case pathOutsideLibrary(String)
    case busy(library: String, holder: String)
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case index(path: String, reason: String)

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
        }
    }
}
