/// `--subject KIND/ID` wins over everything else.
public struct RequestedSubjectRouter: Router {
    public let name = "requested-subject"
    public let summary = "the subject given with --subject"

    public init() {}

    public func route(_ item: Item, from source: SourceFile, context: RoutingContext) -> RoutingDecision {
        context.requestedSubject.map(RoutingDecision.subject) ?? .undecided
    }
}
