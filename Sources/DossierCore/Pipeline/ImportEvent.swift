/// What listeners hear, in this order: `started` once, `finished` per source, `completed` once.
public enum ImportEvent: Sendable {
    case started(sourceCount: Int, dryRun: Bool)
    case finished(SourceOutcome, completed: Int, total: Int)
    case completed(ImportSummary)
}
