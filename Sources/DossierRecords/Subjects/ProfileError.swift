/// Problems with a subject's profile.
public enum ProfileError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case alreadyExists(String)
    case notFound(String)
    case invalidSex(String)
    case invalidDate(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): this profile is damaged: \(reason); `dossier verify --repair` keeps it under damaged/ "
                + "and starts it again"
        case .alreadyExists(let subject): return "\(subject) already exists; its profile was left as it is"
        case .notFound(let subject): return "there is no subject \(subject) in this library"
        case .invalidSex(let text): return "'\(text)' is not a sex Dossier knows: use \(Sex.accepted)"
        case .invalidDate(let text):
            return "'\(text)' is not a date: use YYYY-MM-DD, with an optional time as YYYY-MM-DDTHH:MM"
        }
    }
}
