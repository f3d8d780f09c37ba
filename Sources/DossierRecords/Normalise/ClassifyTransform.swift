import DossierCore

/// Gives each record its kind from the keyword table (unless its source gave one; an entry whose
/// words name no kind is a memo, or of the kind given with --kind) and reads the quantities its
/// words hold.
public struct ClassifyTransform: Transform {
    public let name = "classify"
    public let summary = "record kinds from the keyword table (Korean and English; foods mean feeding), quantities from the text"
    public let stage = TransformStage.values

    public init() {}

    /// What the words of one entry say. The kind is only worked out when a record needs one: a
    /// CSV with a kind column gives every record its kind, and classifying each note anyway was
    /// a large share of the transform's time (docs/performance.md, "ClassifyTransform").
    private struct Reading: Sendable {
        /// Nil: not worked out (the record had a kind); `.some(nil)`: the words name no kind.
        let kind: String??
        let quantities: [Quantity]
    }

    /// What has been read so far: whole entries, and single words.
    private struct Memo: Sendable {
        var readings = BoundedMemo<Reading>()
        var words = WordMemo()
    }

    public func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        guard !batch.records.isEmpty else { return }
        let classifier = try context.resources.value(KeywordClassifier.self) {
            KeywordClassifier(table: try KeywordTable.load(for: context.layout))
        }
        let reader = QuantityReader(classifier: classifier)
        // Logs say the same things over and over ("귀뚜라미 5마리", "물갈이"): each distinct
        // entry is read once, and what was read is kept from batch to batch of the run.
        let memos = context.resources.value(LendingPool<Memo>.self) { LendingPool { Memo() } }
        memos.borrow { memo in
            // Through the buffer, each record's body is read where it lies (the array's
            // subscript would hand out a copy of the string, retained and released).
            batch.records.withUnsafeMutableBufferPointer { records in
                for index in records.indices {
                    let needsKind = records[index].kind == nil
                    let needsQuantities = records[index].quantities.isEmpty && records[index].measurements.isEmpty
                    guard needsKind || needsQuantities else { continue }
                    var reading = memo.readings.answer(records[index].body) { body in
                        let words = WordScanner.words(in: body)
                        return Reading(kind: needsKind ? .some(classifier.classify(words: words, memo: &memo.words).kind) : nil,
                                       quantities: reader.quantities(in: words, memo: &memo.words))
                    }
                    if needsKind && reading.kind == nil {
                        // Remembered from a record that had a kind: this one needs it worked out.
                        let words = WordScanner.words(in: String(records[index].body))
                        reading = Reading(kind: .some(classifier.classify(words: words, memo: &memo.words).kind),
                                          quantities: reading.quantities)
                    }
                    if needsKind {
                        // `--kind shed` means the table's kind for it, as a word in the entry would.
                        records[index].kind = reading.kind.flatMap { $0 }
                            ?? context.requestedKind.map { classifier.classify($0).kind ?? $0 } ?? "memo"
                    }
                    if needsQuantities { records[index].quantities = reading.quantities }
                }
            }
        }
    }
}
