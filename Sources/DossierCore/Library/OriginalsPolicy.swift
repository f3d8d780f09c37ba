import Foundation

/// Which photos' original bytes the library keeps under `originals/` (`--originals`, else the
/// library's `originals` setting in `config/library.json`, else `lossy`).
public enum OriginalsPolicy: String, Sendable, CaseIterable {
    /// A photo whose filed bytes are not a lossless transform of its source's (a turn that had to
    /// decode and encode its pixels again, a damaged picture turned): the camera's bytes would
    /// exist nowhere once `--move` or the daemon removes the source.
    case lossy
    /// Every photo, video and sound: the camera's bytes, whatever was done to them.
    case all
    /// None: the filed file is all the library keeps.
    case none

    /// Whether a photo filed from its source (its filed bytes made lossily or not) keeps its original.
    public func keepsOriginal(filedLossily: Bool) -> Bool {
        switch self {
        case .lossy: filedLossily
        case .all: true
        case .none: false
        }
    }

    /// The library's setting: `"originals"` in `config/library.json`; nil when it has none.
    public static func setting(of layout: LibraryLayout) throws(LibraryError) -> OriginalsPolicy? {
        let path = layout.root.appendingPathComponent(LibraryTimeZone.configurationPath).path
        guard layout.files.fileSize(path) != nil else { return nil }
        let bytes = try layout.files.readFile(path)
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .badConfiguration(path: path, reason: "it is not a JSON object")
        }
        guard let value = object["originals"] else { return nil }
        guard let text = value as? String, let policy = OriginalsPolicy(rawValue: text) else {
            throw .badConfiguration(path: path, reason: "\"originals\" must be \"lossy\", \"all\" or \"none\"")
        }
        return policy
    }
}
