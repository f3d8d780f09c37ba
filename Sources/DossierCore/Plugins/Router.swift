/// Decides which subject an item belongs to. Routers are asked in registration order; the first
/// that decides wins.
public protocol Router: Sendable {
    var name: String { get }
    var summary: String { get }
    /// `source` is the file the item came from.
    func route(_ item: Item, from source: SourceFile, context: RoutingContext) -> RoutingDecision
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
    /// The subjects that exist in the library (or that this import names by folder).
    public let existingSubjects: Set<Subject>
    /// Each subject's names and aliases from its profile, for sources that name subjects.
    public let names: [Subject: [String]]

    public init(requestedSubject: Subject?, existingSubjects: Set<Subject>, names: [Subject: [String]] = [:]) {
        self.requestedSubject = requestedSubject
        self.existingSubjects = existingSubjects
        self.names = names
    }
}
