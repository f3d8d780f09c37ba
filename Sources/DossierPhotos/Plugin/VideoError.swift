/// Why a movie could not be filed.
public enum VideoError: Error, Sendable, CustomStringConvertible {
    /// Its boxes could not be read: cut off, or not a movie after all.
    case unreadable(ContainerError)
    /// Its index holds no track: no picture and no sound, nothing to file as either.
    case noTracks

    public var description: String {
        switch self {
        case .unreadable(let error): "the movie cannot be read: \(error)"
        case .noTracks: "the movie has no tracks (its 'moov' box holds no 'trak'): nothing in it plays, so it is filed neither as a video nor as audio"
        }
    }
}
