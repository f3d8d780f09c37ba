/// What an importer turns a source into, and what transforms and the filer work on.
public enum Item: Sendable {
    case photo(Photo)

    public var source: SourceFile {
        switch self {
        case .photo(let photo): return photo.source
        }
    }

    public var subject: Subject? {
        get {
            switch self {
            case .photo(let photo): return photo.subject
            }
        }
        set {
            switch self {
            case .photo(var photo):
                photo.subject = newValue
                self = .photo(photo)
            }
        }
    }

    public var warnings: [String] {
        switch self {
        case .photo(let photo): return photo.warnings
        }
    }
}
