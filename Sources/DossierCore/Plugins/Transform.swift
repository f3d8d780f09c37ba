/// One normalising step over a batch of items from one source. Returns the items to pass on:
/// none drops them, several fan them out. A transform never reaches back into an earlier stage.
public protocol Transform: Sendable {
    var name: String { get }
    var summary: String { get }
    var stage: TransformStage { get }
    /// Throws when the source cannot be made right; the source is then reported failed and
    /// nothing of it is filed.
    func apply(to items: [Item], context: PipelineContext) throws -> [Item]
}
