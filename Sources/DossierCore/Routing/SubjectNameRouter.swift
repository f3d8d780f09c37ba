import Foundation

/// A file or folder named after a subject's id, name or alias: `레오.txt`, `coco-feedings.csv`
/// is not (the whole stem must match), `~/logs/Leo/2023.txt` is.
public struct SubjectNameRouter: Router {
    public let name = "subject-name"
    public let summary = "a file or folder named after a subject's id, name or alias (from its profile)"

    public init() {}

    public func route(_ item: Item, from source: SourceFile, context: RoutingContext) -> RoutingDecision {
        guard !context.names.isEmpty else { return .undecided }
        let stem = ((source.fileName as NSString).deletingPathExtension)
        let candidates = [stem] + source.ancestorFolders.map { ($0 as NSString).lastPathComponent }
        for candidate in candidates {
            let key = SubjectNameRouter.key(candidate)
            let matches = context.names.filter { _, names in names.contains { SubjectNameRouter.key($0) == key } }.keys.sorted()
            if matches.count == 1 { return .subject(matches[0]) }
            if matches.count > 1 {
                return .unassigned(reason: "'\(candidate)' names \(matches.map(\.path).joined(separator: " and ")); give --subject")
            }
        }
        return .undecided
    }

    /// Names compare case-insensitively and in one Unicode normal form (Korean typed on a Mac
    /// and on Windows differ in bytes otherwise).
    static func key(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.lowercased().trimmingCharacters(in: .whitespaces)
    }
}
