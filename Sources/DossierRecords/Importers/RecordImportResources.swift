import DossierCore

/// What every record importer needs, loaded once per run and shared: the library's keyword
/// table (its words are never names), its settings, and the subjects' names.
struct RecordImportResources: Sendable {
    let keywords: KeywordTable
    let settings: RecordsSettings
    let directory: SubjectDirectory

    static func of(_ context: PipelineContext) throws -> RecordImportResources {
        try context.resources.value(RecordImportResources.self) {
            RecordImportResources(
                keywords: try KeywordTable.load(for: context.layout),
                settings: try RecordsSettings.load(for: context.layout),
                directory: SubjectDirectory(entries: context.routing.names.sorted { $0.key < $1.key }
                    .map { (subject: $0.key, names: $0.value) }))
        }
    }
}
