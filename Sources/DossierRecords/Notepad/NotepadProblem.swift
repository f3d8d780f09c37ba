/// A line the parser could not file as written, or filed on a guess the writer should check.
/// An `Error` too, so importers of other line-based formats can carry it in a `Result`.
public struct NotepadProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// Why a line without a date is not filed. Told apart from the other reasons: a file of only
    /// such lines is prose (a README), not a log full of mistakes.
    public static let undatedReason = "no date on this line or above it"

    /// Whether the line simply had no date (and no dated line above it).
    public var isUndated: Bool { reason == NotepadProblem.undatedReason }

    /// `line 12: unknown name '레우' (did you mean 레오?)`: the form editors and compilers use,
    /// so a keeper can go straight to the line.
    public var description: String { "line \(line): \(reason)" }
}
