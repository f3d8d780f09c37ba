public enum PluginError: Error, Equatable, Sendable, CustomStringConvertible {
    case duplicateName(String)

    public var description: String {
        switch self {
        case .duplicateName(let name): return "two plugins are named '\(name)'; plugin names must be unique"
        }
    }
}
