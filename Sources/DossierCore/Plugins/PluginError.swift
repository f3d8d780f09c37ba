public enum PluginError: Error, Equatable, Sendable, CustomStringConvertible {
    case duplicateName(String)
    /// Two plugins registered different formats filed under one extension.
    case conflictingPhotoFormats(fileExtension: String)

    public var description: String {
        switch self {
        case .duplicateName(let name): return "two plugins are named '\(name)'; plugin names must be unique"
        case .conflictingPhotoFormats(let fileExtension):
            return "two different photo formats are filed as '.\(fileExtension)'; a filed file's extension must name one format"
        }
    }
}
