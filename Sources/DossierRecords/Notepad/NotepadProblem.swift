/// A line the parser could not file as written, or filed on a guess the writer should check.
/// An `Error` too, so importers of other line-based formats can carry it in a `Result`.
public struct NotepadProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line 12: unknown name '레우' (did you mean 레오?)`: the form editors and compilers use,
    /// so a keeper can go straight to the line.
    public var description: String { "line \(line): \(reason)" }
}
