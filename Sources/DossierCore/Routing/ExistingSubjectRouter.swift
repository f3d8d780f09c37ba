import Foundation

/// A folder above the source named after a subject that already exists in the library, e.g.
/// `~/dump/leo/IMG_0001.JPG` when `pets/leo` exists.
public struct ExistingSubjectRouter: Router {
    public let name = "existing-subject"
    public let summary = "a folder above the source named after an existing subject's id"

    public init() {}

    public func route(_ item: Item, from source: SourceFile, context: RoutingContext) -> RoutingDecision {
        for folder in source.ancestorFolders {
            let name = (folder as NSString).lastPathComponent
            let matches = context.existingSubjects.filter { $0.id.rawValue == name }.sorted()
            if matches.count == 1 { return .subject(matches[0]) }
            if matches.count > 1 {
                let names = matches.map(\.path).joined(separator: " and ")
                return .unassigned(reason: "the folder '\(name)' could be \(names); give --subject")
            }
        }
        return .undecided
    }
}
