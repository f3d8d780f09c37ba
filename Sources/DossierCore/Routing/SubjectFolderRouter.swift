import Foundation

/// The nearest folder above the source that is named like a subject folder: `.../pets/<id>/...`
/// or `.../children/<id>/...`, as a user's own sorted dumps often are. The `<id>` folder is one
/// below the folder the user named, or that folder itself (`dossier import ~/dump/pets/leo`).
/// It names a subject the library has; one it has not is made only with `--create`, else the
/// source is unassigned with the nearest ids (a typo in a folder name is not a new pet).
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
            let subject: Subject
            do {
                subject = Subject(kind: kind, id: try SubjectID(name))
            } catch {
                // `pets/Leo` for leo: the id it was surely meant to be, when that one is valid.
                let meant = (try? SubjectID(name.lowercased())).map { " (did you mean \(kind.rawValue)/\($0.rawValue)?)" } ?? ""
                return .unassigned(reason: "the folder \(kind.rawValue)/\(name) is not a valid subject id\(meant): "
                    + "an id is \(SubjectID.rule)")
            }
            // A folder is not enough to make a subject: `pets/lepo` for leo would become one.
            guard context.createsSubjects || context.existingSubjects.contains(subject) else {
                return .unassigned(reason: SubjectFolderRouter.noSubject(subject, among: context.existingSubjects))
            }
            return .subject(subject)
        }
        return .undecided
    }

    /// `no subject pets/lepo in the library (did you mean pets/leo?); add it with ...`
    static func noSubject(_ subject: Subject, among existing: Set<Subject>) -> String {
        let closest = ClosestNames.closest(to: subject.path, among: existing.map(\.path))
        return "no subject \(subject.path) in the library"
            + (closest.isEmpty ? "" : " (did you mean \(closest.joined(separator: " or "))?)")
            + "; add it with `dossier subjects add \(subject.path)` (or give --create to make it from its folder)"
    }
}

