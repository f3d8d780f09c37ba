/// Decides which subject an item belongs to. Routers are asked in registration order; the first
/// that decides wins.
public protocol Router: Sendable {
    var name: String { get }
    var summary: String { get }
    /// `source` is the file the item came from.
    func route(_ item: Item, from source: SourceFile, context: RoutingContext) -> RoutingDecision
}
