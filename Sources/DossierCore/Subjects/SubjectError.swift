/// Why a subject reference given by a user or found in a path was refused.
public enum SubjectError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidID(String)
    case invalidReference(String)

    public var description: String {
        switch self {
        case .invalidID(let id):
            return "invalid subject id '\(id)': an id is \(SubjectID.rule)"
        case .invalidReference(let reference):
            let kinds = SubjectKind.allCases.map(\.rawValue).joined(separator: "' or '")
            return "invalid subject '\(reference)': expected KIND/ID where KIND is '\(kinds)' and ID is \(SubjectID.rule)"
        }
    }
}
