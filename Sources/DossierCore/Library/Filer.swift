import Foundation

/// Puts items into subject folders: atomically, durably, never over an existing file.
///
/// A file is written whole into `.dossier/staging` and fsynced, then linked to its final name
/// (which fails rather than replace an existing file) and the folder fsynced. A crash leaves
/// either no file or a whole one under the subject, plus perhaps an orphan in staging that the
/// next run clears.
public struct Filer: Sendable {
    public let layout: LibraryLayout
    public let index: LibraryIndex?
    public let dryRun: Bool
    /// Names tried for one photo when others with the same date and hash prefix hold other bytes.
    static let maximumCollisions = 100

    public init(layout: LibraryLayout, index: LibraryIndex?, dryRun: Bool) {
        self.layout = layout
        self.index = index
        self.dryRun = dryRun
    }

    public func file(_ photo: Photo, for subject: Subject) throws -> FilingResult {
        let digest = ContentDigest(of: photo.bytes)
        if let known = try index?.filedFile(for: subject, digest: digest),
           try holdsSameBytes(try layout.url(forRelativePath: known.path).path, digest: digest) {
            return .duplicate(path: known.path)
        }
        var stagedPath: String?
        defer { if let stagedPath { try? layout.files.remove(stagedPath) } }
        for collision in 0..<Filer.maximumCollisions {
            let relativePath = layout.photoPath(for: subject, takenAt: photo.captureDate.dateTime, digest: digest,
                                                format: photo.format, collisionIndex: collision)
            let finalPath = try layout.url(forRelativePath: relativePath).path
            if dryRun {
                guard try layout.files.entryType(finalPath) != nil else { return .filed(path: relativePath, digest: digest) }
                if try holdsSameBytes(finalPath, digest: digest) { return .duplicate(path: relativePath) }
                continue
            }
            if stagedPath == nil { stagedPath = try stage(photo.bytes) }
            switch try layout.files.link(stagedPath!, to: finalPath) {
            case .linked:
                return .filed(path: relativePath, digest: digest)
            case .nameTaken:
                if try holdsSameBytes(finalPath, digest: digest) { return .adopted(path: relativePath, digest: digest) }
            }
        }
        throw LibraryError.cannotWrite(
            path: layout.folder(for: subject).path,
            reason: "\(Filer.maximumCollisions) files with the same date and hash prefix already exist")
    }

    /// Removes what a stopped run left in staging. Call with the library lock held.
    public static func clearStaging(_ layout: LibraryLayout) throws(LibraryError) {
        let staging = layout.stagingFolder.path
        for name in try layout.files.names(in: staging) { try layout.files.remove("\(staging)/\(name)") }
    }

    private func stage(_ bytes: [UInt8]) throws(LibraryError) -> String {
        let path = layout.stagingFolder.appendingPathComponent("\(UUID().uuidString).part").path
        try layout.files.writeNewFile(bytes, at: path)
        return path
    }

    /// Whether a regular file at `path` holds exactly the bytes with this digest (a missing file,
    /// a link or another picture does not).
    func holdsSameBytes(_ path: String, digest: ContentDigest) throws -> Bool {
        guard layout.files.isFile(path) else { return false }
        let existing = try layout.files.readFile(path)
        return ContentDigest(of: existing) == digest
    }
}
