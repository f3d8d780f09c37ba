public enum RoutingDecision: Equatable, Sendable {
    case subject(Subject)
    /// This router has nothing to say; ask the next.
    case undecided
    /// The item cannot be routed and no later router should guess (e.g. an ambiguous folder name).
    case unassigned(reason: String)
}
