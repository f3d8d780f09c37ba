import Foundation

/// Where everything lives inside a library folder. Every path handed out is built from validated
/// subject ids, digits and hex digests, and checked to stay inside the root.
public struct LibraryLayout: Sendable {
    public let root: URL
    /// The formats photos are filed in, as the installed plugins registered them: what tells a
    /// filed file by its extension where the pipeline is not there to say (a rebuilt index leaves
    /// out the renditions beside a HEIC). None unless given.
    public let photoFormats: PhotoFormats

    public init(root: URL, photoFormats: PhotoFormats = PhotoFormats()) {
        self.root = root.standardizedFileURL
        self.photoFormats = photoFormats
    }

    /// `--library`, else `$DOSSIER_LIBRARY`, else `./Library`.
    public static func resolve(option: String?, photoFormats: PhotoFormats = PhotoFormats(),
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> LibraryLayout
    {
        let path = option ?? environment["DOSSIER_LIBRARY"].flatMap { $0.isEmpty ? nil : $0 } ?? "Library"
        return LibraryLayout(root: URL(fileURLWithPath: path), photoFormats: photoFormats)
    }

    /// The only way to write, rename, link or delete inside the library: never follows a link.
    public var files: LibraryFileSystem { LibraryFileSystem(root: root.path) }

    public var metadataFolder: URL { root.appendingPathComponent(".dossier", isDirectory: true) }
    public var indexFile: URL { metadataFolder.appendingPathComponent("index.sqlite") }
    public var stagingFolder: URL { metadataFolder.appendingPathComponent("staging", isDirectory: true) }
    public var lockFile: URL { metadataFolder.appendingPathComponent("lock") }
    /// Where sources that could not be filed wait, one folder a day (`quarantine/2026-11-25/`).
    public var quarantineFolder: URL { root.appendingPathComponent("quarantine", isDirectory: true) }

    public func folder(for subject: Subject) -> URL {
        root.appendingPathComponent(subject.kind.rawValue, isDirectory: true)
            .appendingPathComponent(subject.id.rawValue, isDirectory: true)
    }

    /// `pets/leo/photos/2024/2024-03-02_141503_1a2b3c4d.jpg` (a video: `pets/leo/videos/2024/...mov`),
    /// relative to the root.
    public func photoPath(for subject: Subject, takenAt date: LocalDateTime, digest: ContentDigest,
                          format: PhotoFormat, collisionIndex: Int = 0) -> String
    {
        "\(subject.path)/\(photoName(takenAt: date, digest: digest, format: format, collisionIndex: collisionIndex))"
    }

    /// A photo's path inside its subject's folder: `photos/2024/2024-03-02_141503_1a2b3c4d.jpg`.
    public func photoName(takenAt date: LocalDateTime, digest: ContentDigest, format: PhotoFormat,
                          collisionIndex: Int = 0) -> String
    {
        "\(format.folder)/\(String(format: "%04d", date.year))/"
            + "\(date.fileStamp)_\(digest.shortHex)\(LibraryLayout.collisionSuffix(collisionIndex)).\(format.fileExtension)"
    }

    /// Whether a filed file's name (`2024-03-02_141503_1a2b3c4d.jpg`, or `..._1a2b3c4d-2.jpg`)
    /// carries `digest`: a file filed under its own name does; one filed beside a photo under the
    /// photo's name (a raw beside its JPEG) and a rendition carry the photo's.
    public static func nameCarries(_ digest: ContentDigest, path: String) -> Bool {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let parts = stem.split(separator: "_")
        return parts.count == 3 && parts[2].split(separator: "-").first.map(String.init) == digest.shortHex
    }

    /// A file filed beside a photo (`stillPath`, relative to the subject's folder) under the same
    /// name and its own extension: a Live Photo's movie (`pets/leo/photos/2024/2024-01-12_213853_1ad773a0.mov`),
    /// a raw beside its camera's JPEG, a sidecar.
    public func besideStillPath(for subject: Subject, stillPath: String, fileExtension: String,
                                   collisionIndex: Int = 0) -> String
    {
        let stem = (stillPath as NSString).deletingPathExtension
        return "\(subject.path)/\(stem)\(LibraryLayout.collisionSuffix(collisionIndex)).\(fileExtension)"
    }

    /// What tells apart names that would otherwise be the same: none for the first, `-2`, `-3`...
    private static func collisionSuffix(_ collisionIndex: Int) -> String {
        collisionIndex == 0 ? "" : "-\(collisionIndex + 1)"
    }

    /// The absolute location of a path relative to the root; refuses anything that would leave it.
    public func url(forRelativePath relativePath: String) throws(LibraryError) -> URL {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.hasPrefix("/"),
              !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else { throw LibraryError.pathOutsideLibrary(relativePath) }
        let url = root.appendingPathComponent(relativePath).standardizedFileURL
        guard url.path.hasPrefix(root.path + "/") else { throw LibraryError.pathOutsideLibrary(relativePath) }
        return url
    }

    /// Whether the root holds a library already: a subject kind folder, or anything in its index
    /// folder besides what a first import makes to take the lock.
    public var holdsLibrary: Bool {
        if SubjectKind.allCases.contains(where: { FileManager.default.fileExists(atPath: root.appendingPathComponent($0.rawValue).path) }) {
            return true
        }
        // What a first import makes to take the lock (the staging folder, the lock file) is no
        // library yet: another first import that sees only those must not take the folder for
        // a library from before ids.
        let madeForTheLock: Set<String> = [stagingFolder.lastPathComponent, lockFile.lastPathComponent]
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: metadataFolder.path) else { return false }
        return entries.contains { !madeForTheLock.contains($0) }
    }

    /// `<kind>/<id>/profile.json`, relative to the root.
    public func profilePath(for subject: Subject) -> String { "\(subject.path)/profile.json" }

    /// Each existing subject's id, name and aliases, from its profile: what logs and CSV files
    /// call it by.
    public func subjectNames() -> [Subject: [String]] {
        var names: [Subject: [String]] = [:]
        for subject in existingSubjects() {
            var known = [subject.id.rawValue]
            let url = root.appendingPathComponent(profilePath(for: subject))
            if let data = try? Data(contentsOf: url),
               let profile = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                if let name = profile["name"] as? String { known.append(name) }
                known += (profile["aliases"] as? [String]) ?? []
            }
            names[subject] = known
        }
        return names
    }

    /// The subjects whose folders exist: `pets/<id>` and `children/<id>` with valid ids.
    public func existingSubjects() -> Set<Subject> {
        var subjects = Set<Subject>()
        for kind in SubjectKind.allCases {
            let kindFolder = root.appendingPathComponent(kind.rawValue).path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: kindFolder)) ?? []
            for name in names {
                var isFolder: ObjCBool = false
                guard let id = try? SubjectID(name),
                      FileManager.default.fileExists(atPath: "\(kindFolder)/\(name)", isDirectory: &isFolder),
                      isFolder.boolValue
                else { continue }
                subjects.insert(Subject(kind: kind, id: id))
            }
        }
        return subjects
    }
}
