/// Why a movie could not be filed.
public enum VideoError: Error, Sendable, CustomStringConvertible {
    /// Its boxes could not be read: cut off, or not a movie after all.
    case unreadable(ContainerError)

    public var description: String {
        switch self {
        case .unreadable(let error): "the movie cannot be read: \(error)"
        }
    }
}
