import Foundation

/// The nearest folder above the source that is named like a subject folder: `.../pets/<id>/...`
/// or `.../children/<id>/...`, as a user's own sorted dumps often are. The `<id>` folder is one
/// below the folder the user named, or that folder itself (`dossier import ~/dump/pets/leo`).
public struct SubjectFolderRouter: Router {
    public let name = "subject-folder"
    public let summary = "the nearest pets/<id> or children/<id> folder above the source"

    public init() {}

    public func route(_ item: Item, from source: SourceFile, context: RoutingContext) -> RoutingDecision {
        subject(forPath: source, context: context)
    }

    func subject(forPath source: SourceFile, context: RoutingContext) -> RoutingDecision {
        for folder in source.ancestorFolders + (source.namedFolder.map { [$0] } ?? []) {
            let name = (folder as NSString).lastPathComponent
            let parent = ((folder as NSString).deletingLastPathComponent as NSString).lastPathComponent
            guard let kind = SubjectKind(rawValue: parent) else { continue }
            do {
                return .subject(Subject(kind: kind, id: try SubjectID(name)))
            } catch {
                return .unassigned(reason: "the folder \(kind.rawValue)/\(name) is not a valid subject id: "
                    + "an id is \(SubjectID.rule)")
            }
        }
        return .undecided
    }
}

