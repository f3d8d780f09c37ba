/// What routers know besides the item.
public struct RoutingContext: Sendable {
    /// The subject named on the command line (`--subject`), if any.
    public let requestedSubject: Subject?
    /// The subjects that exist in the library (or that this import names by folder).
    public let existingSubjects: Set<Subject>
    /// Each subject's names and aliases from its profile, for sources that name subjects.
    public let names: [Subject: [String]]
    /// Whether a `pets/<id>` or `children/<id>` folder naming no subject makes one (`--create`).
    public let createsSubjects: Bool

    public init(requestedSubject: Subject?, existingSubjects: Set<Subject>, names: [Subject: [String]] = [:],
                createsSubjects: Bool = false) {
        self.requestedSubject = requestedSubject
        self.existingSubjects = existingSubjects
        self.names = names
        self.createsSubjects = createsSubjects
    }
}
