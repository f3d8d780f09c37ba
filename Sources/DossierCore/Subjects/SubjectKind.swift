/// The two kinds of subject a library files things under; the raw value is the folder name.
public enum SubjectKind: String, CaseIterable, Sendable, Codable {
    case pets
    case children
}
