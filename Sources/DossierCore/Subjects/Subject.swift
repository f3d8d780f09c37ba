/// A pet or a child: everything about it lives in `<library>/<kind>/<id>/`.
public struct Subject: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let kind: SubjectKind
    public let id: SubjectID

    public init(kind: SubjectKind, id: SubjectID) {
        self.kind = kind
        self.id = id
    }

    /// Parses `pets/leo` or `children/mina`.
    public init(parsing reference: String) throws(SubjectError) {
        let parts = reference.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = SubjectKind(rawValue: String(parts[0])) else {
            throw SubjectError.invalidReference(reference)
        }
        self.init(kind: kind, id: try SubjectID(String(parts[1])))
    }

    /// `pets/leo`: also the subject's folder relative to the library root.
    public var path: String { "\(kind.rawValue)/\(id.rawValue)" }

    public var description: String { path }

    public static func < (lhs: Subject, rhs: Subject) -> Bool { lhs.path < rhs.path }
}
