/// A part of a source that was not filed (an unknown name, a line without a date, an impossible
/// date, a value that cannot be read, a line too long, a bad profile id): what the problems
/// ledger keeps, so that nothing is dropped silently.
public struct SourceProblem: Sendable, Equatable {
    /// The 1-based line (for a property list, the entry); nil when the problem is with no one line.
    public var line: Int?
    /// The line as written, when the importer has it.
    public var text: String?
    public var reason: String
    /// A line with no date (nor one above it): in a file of only such lines, prose (a README,
    /// a letter), not a log full of mistakes.
    public var isUndated: Bool

    public init(line: Int?, text: String? = nil, reason: String, isUndated: Bool = false) {
        self.line = line
        self.text = text
        self.reason = reason
        self.isUndated = isUndated
    }

    /// `line 12: unknown name '레우' (did you mean 레오?)`, the form editors and compilers use.
    public var description: String {
        line.map { "line \($0): \(reason)" } ?? reason
    }

    /// A problem an importer described as `line N: reason` or `entry N: reason` (the form every
    /// importer reports in), with its number taken apart so the ledger can point at the line.
    public init(describedAs description: String) {
        for prefix in ["line ", "entry "] where description.hasPrefix(prefix) {
            let rest = description.dropFirst(prefix.count)
            if let colon = rest.firstIndex(of: ":"), let number = Int(rest[..<colon]) {
                self.init(line: number, reason: String(rest[rest.index(after: colon)...].drop(while: { $0 == " " })))
                return
            }
        }
        self.init(line: nil, reason: description)
    }
}
