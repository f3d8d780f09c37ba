/// Why a source's bytes could not be read.
public enum SourceReadError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(String)
    case tooLarge(size: Int64, limit: Int64)

    public var description: String {
        switch self {
        case .unreadable(let reason):
            return "cannot read the file: \(reason)"
        case .tooLarge(let size, let limit):
            return "the file is \(size) bytes, more than the \(limit / 1_048_576) MiB an importer accepts"
        }
    }
}
