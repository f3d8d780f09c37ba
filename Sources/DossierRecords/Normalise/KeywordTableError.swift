/// The library's keyword file could not be read.
public struct KeywordTableError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): not a keyword table: \(reason)" }
}
