/// Why a property list was refused. Every case names the file; the reason says what is wrong in
/// it, so a user or an app developer can tell a damaged file from an unsupported one.
public enum PropertyListError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty(path: String)
    case unreadable(path: String, reason: String)
    /// An XML property list declaring entities: refused unparsed, as entity expansion is how
    /// "billion laughs" files exhaust memory.
    case entityDeclaration(path: String, line: Int)
    /// The XML is not a well-formed property list; `line` is 1-based.
    case invalidXML(path: String, line: Int, reason: String)
    /// The binary property list's structure is broken (or built to trap a reader).
    case invalidBinary(path: String, reason: String)
    /// Well formed, but something Dossier does not read (a newer binary version, nesting too deep).
    case unsupported(path: String, reason: String)
    /// Foundation's parser refused the file; its own explanation is kept.
    case unparseable(path: String, format: String, reason: String)

    public var description: String {
        switch self {
        case .empty(let path):
            return "\(path): the file is empty, not a property list"
        case .unreadable(let path, let reason):
            return "\(path): cannot read the file: \(reason)"
        case .entityDeclaration(let path, let line):
            return "\(path):\(line): XML entity declarations are not supported (the file declares an <!ENTITY>)"
        case .invalidXML(let path, let line, let reason):
            return "\(path):\(line): not a valid XML property list: \(reason)"
        case .invalidBinary(let path, let reason):
            return "\(path): not a valid binary property list: \(reason)"
        case .unsupported(let path, let reason):
            return "\(path): unsupported property list: \(reason)"
        case .unparseable(let path, let format, let reason):
            return "\(path): not a valid \(format) property list: \(reason)"
        }
    }
}
