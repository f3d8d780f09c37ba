/// A source the problems ledger reads again: the library's kept copy, under its original path.
public struct RetrySource: Sendable, Equatable {
    public var originalPath: String
    /// Relative to the library root.
    public var keptPath: String
    /// Where its entries that name no subject went the first time.
    public var routeSubject: Subject?

    public init(originalPath: String, keptPath: String, routeSubject: Subject?) {
        self.originalPath = originalPath
        self.keptPath = keptPath
        self.routeSubject = routeSubject
    }

    /// One retry per source in the ledger (problems without a kept copy cannot be read again).
    public static func sources(in problems: [LedgerProblem]) -> [RetrySource] {
        var seen = Set<String>()
        var sources: [RetrySource] = []
        for problem in problems {
            guard let kept = problem.keptPath, seen.insert("\(problem.sourcePath)\u{0}\(kept)").inserted else { continue }
            sources.append(RetrySource(originalPath: problem.sourcePath, keptPath: kept,
                                       routeSubject: problem.routeSubject.flatMap { try? Subject(parsing: $0) }))
        }
        return sources
    }
}
