/// What a worker made of one source, for the driving task to settle.
struct WorkedSource: Sendable {
    var outcome: SourceOutcome
    /// The source as discovered; nil for a path that could not be read at all.
    let source: SourceFile?
    /// Index rows to record once settled.
    var filed: FiledFile?
    var imported: ImportedSource?
    /// Records waiting in staging to be merged into their year files.
    var pendingRecords: PendingRecords?
    /// Items that file themselves, one source at a time.
    var customItems: [any CustomItem]

    init(outcome: SourceOutcome, source: SourceFile? = nil, filed: FiledFile? = nil, imported: ImportedSource? = nil,
         pendingRecords: PendingRecords? = nil, customItems: [any CustomItem] = []) {
        self.outcome = outcome
        self.source = source
        self.filed = filed
        self.imported = imported
        self.pendingRecords = pendingRecords
        self.customItems = customItems
    }
}
