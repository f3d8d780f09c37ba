/// An item a plugin defines and files itself: a subject's profile, entries for the species
/// table. The pipeline routes it (when it has no subject yet and needs one) and asks it to file
/// itself; everything it writes must go through `FilingContext` so it is atomic and dry runs
/// write nothing.
public protocol CustomItem: Sendable {
    var source: SourceFile { get }
    var subject: Subject? { get set }
    /// Whether it belongs to a subject (a profile) or to the whole library (species entries).
    var needsSubject: Bool { get }
    /// A short name for messages: "profile", "species entries".
    var itemName: String { get }
    func file(in context: FilingContext) throws -> CustomFilingResult
}
