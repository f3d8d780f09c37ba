/// A library configuration file (`config/keywords.json`, `config/records.json`) could not be read.
public struct LibraryConfigurationError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): not a valid configuration file: \(reason)" }
}
