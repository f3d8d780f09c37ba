import DossierCore
import Foundation

/// A profile read from a file, on its way to `<kind>/<id>/profile.json`: laid over the profile
/// already there (`ProfileMerge`: what the file gives wins over what an import wrote, a field typed
/// by hand stays unless `--overwrite-profiles`), normalised, written if it changed.
public struct SubjectProfileItem: CustomItem {
    public var profile: SubjectProfile
    public let source: SourceFile
    public var subject: Subject? {
        get { profile.subject }
        set { if let newValue { profile.subject = newValue } }
    }
    public let needsSubject = false
    public let itemName = "profile"

    public init(profile: SubjectProfile, source: SourceFile) {
        self.profile = profile
        self.source = source
    }

    public func file(in context: FilingContext) throws -> CustomFilingResult {
        let layout = context.layout
        let store = ProfileStore(layout: layout)
        let existing = try store.profile(of: profile.subject)
        // The transforms normalised this profile; laid over the one on disk (normal already), it
        // stays normal.
        let merge = ProfileMerge(existing: existing, imported: profile, overwritingTyped: context.overwritesTypedFields)
        let path = layout.profilePath(for: profile.subject)
        if let existing, existing == merge.merged { return .unchanged(path: path, profileChange: merge.change) }
        try context.replaceFile(atRelativePath: path, with: try merge.merged.encoded())
        return .filed(path: path, profileChange: merge.change)
    }
}
