import DossierCore

/// Why a filed photo has no thumbnail: each names the filed file (relative to the library).
public enum ThumbnailError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The picture does not decode (damaged, cut short, not what its name says), in the decoder's words.
    case undecodable(path: String, reason: String)
    /// A photo filed with a rendition beside it (a HEIC, a TIFF, a raw) whose rendition is not there.
    case renditionMissing(path: String, rendition: String)
    /// The library refused a read or a write (a link where the thumbnail goes, a full disk).
    case library(path: String, LibraryError)

    public var description: String {
        switch self {
        case .undecodable(let path, let reason): "\(path): no thumbnail: \(reason)"
        case .renditionMissing(let path, let rendition):
            "\(path): no thumbnail: its rendition \(rendition) is missing (`dossier verify` finds what else is)"
        case .library(let path, let error): "\(path): no thumbnail: \(error)"
        }
    }
}
