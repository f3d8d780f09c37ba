import DossierCore

/// Gives each record its kind from the keyword table (unless its source gave one; an entry whose
/// words name no kind is a memo, or of the kind given with --kind) and reads the quantities its
/// words hold.
public struct ClassifyTransform: Transform {
    public let name = "classify"
    public let summary = "record kinds from the keyword table (Korean and English; foods mean feeding), quantities from the text"
    public let stage = TransformStage.values

    public init() {}

    public func apply(to items: [Item], context: PipelineContext) throws -> [Item] {
        let classifier = try context.resources.value(KeywordClassifier.self) {
            KeywordClassifier(table: try KeywordTable.load(for: context.layout))
        }
        let reader = QuantityReader(classifier: classifier)
        var memo = WordMemo()
        return items.map { item in
            guard case .record(var draft) = item else { return item }
            let words = WordScanner.words(in: draft.body)
            if draft.kind == nil {
                draft.kind = classifier.classify(words: words, memo: &memo).kind ?? context.requestedKind ?? "memo"
            }
            if draft.quantities.isEmpty && draft.measurements.isEmpty {
                draft.quantities = reader.quantities(in: words, memo: &memo)
            }
            return .record(draft)
        }
    }
}
