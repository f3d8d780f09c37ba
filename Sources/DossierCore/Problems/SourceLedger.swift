/// A source's entries in the problems ledger, as one import found them: they replace whatever
/// an earlier import of the same source left.
public struct SourceLedger: Sendable, Equatable {
    public var sourcePath: String
    public var keptPath: String?
    public var problems: [LedgerProblem]

    public init(sourcePath: String, keptPath: String?, problems: [LedgerProblem]) {
        self.sourcePath = sourcePath
        self.keptPath = keptPath
        self.problems = problems
    }
}
