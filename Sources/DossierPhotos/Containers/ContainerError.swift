/// Why an ISO base media file (HEIF, MP4, MOV) could not be read as one.
public enum ContainerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A box claims more bytes than the file (or its parent box) holds.
    case truncated(at: Int64)
    /// A box's size field cannot be right (smaller than its own header).
    case malformed(String)
    /// Boxes nested deeper than anything real (a hostile file's endless nesting).
    case tooDeep(Int)
    /// A box the reader needs is larger than it will hold in memory.
    case tooLarge(type: String, size: Int64)
    case unreadable(String)

    public var description: String {
        switch self {
        case .truncated(let offset): "the file ends inside a box (at byte \(offset)): it is cut off"
        case .malformed(let reason): "malformed box: \(reason)"
        case .tooDeep(let depth): "boxes nested more than \(depth) deep"
        case .tooLarge(let type, let size): "the '\(type)' box is \(size) bytes, more than Dossier reads"
        case .unreadable(let reason): "could not read the file: \(reason)"
        }
    }
}
