/// One normalising step over a batch of items from one source. Changes the batch in place:
/// removing items drops them, inserting fans them out. In place, because most stages touch few
/// of the items (orient only photos, species only profiles) or one field of each record: a
/// stage that returned a new batch would copy every record of a million-line log once per
/// stage. A transform never reaches back into an earlier stage.
public protocol Transform: Sendable {
    var name: String { get }
    var summary: String { get }
    var stage: TransformStage { get }
    /// Throws when the source cannot be made right; the source is then reported failed and
    /// nothing of it is filed.
    func apply(to batch: inout ItemBatch, context: PipelineContext) throws
}
