/// What an importer turns a source into, and what transforms and the filer work on.
public enum Item: Sendable {
    case photo(Photo)
    case record(RecordDraft)
    case custom(any CustomItem)

    public var subject: Subject? {
        get {
            switch self {
            case .photo(let photo): return photo.subject
            case .record(let draft): return draft.subject
            case .custom(let item): return item.subject
            }
        }
        set {
            switch self {
            case .photo(var photo):
                photo.subject = newValue
                self = .photo(photo)
            case .record(var draft):
                draft.subject = newValue
                self = .record(draft)
            case .custom(var item):
                item.subject = newValue
                self = .custom(item)
            }
        }
    }

    /// Whether routing must find a subject for it.
    public var needsSubject: Bool {
        switch self {
        case .photo, .record: return true
        case .custom(let item): return item.needsSubject
        }
    }
}
