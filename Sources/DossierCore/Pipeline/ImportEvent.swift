/// What listeners hear, in this order: `notice` for each thing opening the library did that a
/// person should know (it was made, its index rebuilt), `started` once, `finished` per source,
/// `completed` once.
public enum ImportEvent: Sendable {
    case notice(LibraryNotice)
    case started(sourceCount: Int, dryRun: Bool)
    case finished(SourceOutcome, completed: Int, total: Int)
    case completed(ImportSummary)
}
