/// Decides which subject an item belongs to. Routers are asked in registration order; the first
/// that decides wins.
public protocol Router: Sendable {
    var name: String { get }
    var summary: String { get }
    func route(_ item: Item, context: RoutingContext) -> RoutingDecision
}

public enum RoutingDecision: Equatable, Sendable {
    case subject(Subject)
    /// This router has nothing to say; ask the next.
    case undecided
    /// The item cannot be routed and no later router should guess (e.g. an ambiguous folder name).
    case unassigned(reason: String)
}

/// What routers know besides the item.
public struct RoutingContext: Sendable {
    /// The subject named on the command line (`--subject`), if any.
    public let requestedSubject: Subject?
    /// The subjects that exist in the library.
    public let existingSubjects: Set<Subject>

    public init(requestedSubject: Subject?, existingSubjects: Set<Subject>) {
        self.requestedSubject = requestedSubject
        self.existingSubjects = existingSubjects
    }
}
