/// What a worker made of one source, for the driving task to settle.
struct WorkedSource: Sendable {
    let outcome: SourceOutcome
    /// The source as discovered; nil for a path that could not be read at all.
    let source: SourceFile?
    /// Index rows to record once settled.
    let filed: FiledFile?
    let imported: ImportedSource?

    init(outcome: SourceOutcome, source: SourceFile? = nil, filed: FiledFile? = nil, imported: ImportedSource? = nil) {
        self.outcome = outcome
        self.source = source
        self.filed = filed
        self.imported = imported
    }
}
