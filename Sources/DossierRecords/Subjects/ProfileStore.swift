import DossierCore
import Foundation

/// Reads and writes subjects' `profile.json` files.
public struct ProfileStore: Sendable {
    public let layout: LibraryLayout

    public init(layout: LibraryLayout) {
        self.layout = layout
    }

    public func profile(of subject: Subject) throws -> SubjectProfile? {
        let url = layout.root.appendingPathComponent(layout.profilePath(for: subject))
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(SubjectProfile.self, from: Data(contentsOf: url))
        } catch {
            throw ProfileError.unreadable(path: url.path, reason: "\(error)")
        }
    }

    /// Every subject with a folder, with its profile where it has one, sorted.
    public func allProfiles() throws -> [(subject: Subject, profile: SubjectProfile?)] {
        try layout.existingSubjects().sorted().map { ($0, try profile(of: $0)) }
    }

    /// Writes a profile atomically (staged, fsynced, renamed). The library must be locked.
    public func save(_ profile: SubjectProfile, dryRun: Bool = false) throws {
        try FilingContext(layout: layout, dryRun: dryRun)
            .replaceFile(atRelativePath: layout.profilePath(for: profile.subject), with: try profile.encoded())
    }
}
