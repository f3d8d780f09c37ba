import Foundation

/// What a custom item may use to file itself: the layout, and an atomic write that respects dry
/// runs.
public struct FilingContext: Sendable {
    public let layout: LibraryLayout
    public let dryRun: Bool
    /// `--overwrite-profiles`: what a source says replaces what a person typed into a profile.
    public let overwritesTypedFields: Bool

    public init(layout: LibraryLayout, dryRun: Bool, overwritesTypedFields: Bool = false) {
        self.layout = layout
        self.dryRun = dryRun
        self.overwritesTypedFields = overwritesTypedFields
    }

    /// Replaces (or creates) a file inside the library atomically: written whole into staging,
    /// fsynced, renamed over the old one, folder fsynced. In a dry run, writes nothing.
    public func replaceFile(atRelativePath relativePath: String, with bytes: [UInt8]) throws {
        let target = try layout.url(forRelativePath: relativePath).path
        guard !dryRun else { return }
        try layout.files.replaceFile(at: target, with: bytes, stagingFolder: layout.stagingFolder.path)
    }

    /// Replaces a damaged file inside the library: the new bytes written whole into staging and
    /// fsynced, the damaged ones kept under `damaged/<day>/<relativePath>` (as a damaged photo's
    /// are) before the new ones take the name. Returns where the damaged bytes went.
    public func replaceDamagedFile(atRelativePath relativePath: String, with bytes: [UInt8]) throws -> String? {
        guard !dryRun else { return nil }
        let staged = layout.stagingFolder.appendingPathComponent("\(UUID().uuidString).part").path
        try layout.files.writeNewFile(bytes, at: staged)
        return try Filer(layout: layout, index: nil, dryRun: false).put(staged, at: relativePath)
    }

    /// The current contents of a file inside the library, nil if there is none.
    public func contents(ofRelativePath relativePath: String) throws -> [UInt8]? {
        let path = try layout.url(forRelativePath: relativePath).path
        guard try layout.files.entryType(path) != nil else { return nil }
        return try layout.files.readFile(path)
    }
}
