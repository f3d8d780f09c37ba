/// The counts of one import run.
public struct ImportSummary: Sendable, Equatable {
    public private(set) var counts: [ImportStatus: Int]
    public var seconds: Double
    public let dryRun: Bool

    public init(dryRun: Bool) {
        self.dryRun = dryRun
        counts = Dictionary(uniqueKeysWithValues: ImportStatus.allCases.map { ($0, 0) })
        seconds = 0
    }

    public subscript(status: ImportStatus) -> Int { counts[status, default: 0] }

    public var total: Int { counts.values.reduce(0, +) }

    public var hasFailures: Bool { self[.failed] > 0 }

    mutating func add(_ outcome: SourceOutcome) {
        counts[outcome.status, default: 0] += 1
    }
}
