import Foundation

/// Puts items into subject folders: atomically, durably, never over an existing file.
///
/// A file is written whole into `.dossier/staging` and fsynced, then linked to its final name
/// (which fails rather than replace an existing file) and the folder fsynced. A crash leaves
/// either no file or a whole one under the subject, plus perhaps an orphan in staging that the
/// next run clears.
public struct Filer: Sendable {
    public let layout: LibraryLayout
    public let index: (any LibraryCatalog)?
    public let dryRun: Bool
    /// Names tried for one photo when others with the same date and hash prefix hold other bytes.
    static let maximumCollisions = 100

    public init(layout: LibraryLayout, index: (any LibraryCatalog)?, dryRun: Bool) {
        self.layout = layout
        self.index = index
        self.dryRun = dryRun
    }

    public func file(_ photo: Photo, for subject: Subject) throws -> FilingResult {
        let digest = photo.contentDigest
        // A sidecar's bytes may be another photo's sidecar's too (the same edit made twice): it is
        // known by its place beside its photo, not by its bytes.
        if !photo.format.isSidecar, let known = try index?.filedFile(for: subject, digest: digest) {
            if try holdsSameBytes(try layout.url(forRelativePath: known.path).path, digest: digest) {
                // Its rendition, made from it, is checked by its bytes too: one damaged or gone
                // since is made again, beside the photo, which stays as it is.
                if !dryRun, photo.rendition != nil, try !renditionsAreWhole(of: known.path) {
                    return try refile(photo, at: known.path, photoIsWhole: true)
                }
                return .duplicate(path: known.path)
            }
            // Gone since (deleted by hand, perhaps on purpose): back only when `verify --repair` asked.
            if try layout.files.entryType(try layout.url(forRelativePath: known.path).path) == nil,
               try index?.copiesToMend().contains(where: { $0.path == known.path }) != true {
                return .missing(path: known.path)
            }
            // Filed before, and damaged (or gone, and asked for) since: its bytes go back under its name.
            if !dryRun { return try refile(photo, at: known.path) }
        }
        var staged: StagedBytes?
        // A scratch file keeps its staging name until it goes; bytes written here lose theirs now.
        defer { if let staged, staged.scratch == nil { try? layout.files.remove(staged.path) } }
        // A movie (or a raw) beside a still whose movie is there already (other bytes) is not a
        // second one: the pair is complete, and this one is a file of its own, under its own date.
        var besideStill = photo.besideStill
        var ownNames = 0
        for collision in 0..<Filer.maximumCollisions {
            let relativePath: String
            if let still = besideStill {
                relativePath = layout.besideStillPath(for: subject, stillPath: still, fileExtension: photo.format.fileExtension,
                                                         collisionIndex: collision)
            } else {
                relativePath = layout.photoPath(for: subject, takenAt: photo.captureDate.dateTime, digest: digest,
                                                format: photo.format, collisionIndex: ownNames)
                ownNames += 1
            }
            let finalPath = try layout.url(forRelativePath: relativePath).path
            if dryRun {
                guard try layout.files.entryType(finalPath) != nil else { return .filed(path: relativePath, digest: digest) }
                if try holdsSameBytes(finalPath, digest: digest) { return .duplicate(path: relativePath) }
                if besideStill != nil, !photo.format.isSidecar { besideStill = nil }
                continue
            }
            if staged == nil { staged = try stage(photo.content) }
            // A rendition goes in first, so the photo's name never shows without it; one already
            // there with other bytes belongs to another photo: both take the next name.
            if let rendition = photo.rendition, try layout.files.entryType(finalPath) == nil,
               try !fileRendition(rendition, at: Filer.renditionPath(of: relativePath, photo.format, rendition.format)) {
                continue
            }
            switch try layout.files.link(staged!.path, to: finalPath) {
            case .linked:
                return .filed(path: relativePath, digest: digest)
            case .nameTaken:
                if try holdsSameBytes(finalPath, digest: digest) {
                    // Filed by a run stopped before its index commit: its rendition was linked
                    // before it, and must hold the bytes indexed with it now (else it is made again).
                    if let rendition = photo.rendition,
                       try !fileRendition(rendition, at: Filer.renditionPath(of: relativePath, photo.format, rendition.format)) {
                        return try refile(photo, at: relativePath, photoIsWhole: true)
                    }
                    return .adopted(path: relativePath, digest: digest)
                }
                if besideStill == nil, try isDamagedCopy(at: relativePath) { return try refile(photo, at: relativePath) }
                if besideStill != nil, !photo.format.isSidecar { besideStill = nil }
            }
        }
        throw LibraryError.cannotWrite(
            path: layout.folder(for: subject).path,
            reason: "\(Filer.maximumCollisions) files with the same date and hash prefix already exist")
    }

    /// Whether the file at a name made from this photo's digest is a damaged copy of it: one the
    /// index holds as filed there with the bytes it has now, which hash to a digest the name does
    /// not carry (the index was rebuilt from it after it was damaged). A file put there by hand,
    /// which the index does not know, is not; it keeps its name and the photo takes the next.
    private func isDamagedCopy(at relativePath: String) throws -> Bool {
        guard let row = try index?.filedFile(at: relativePath), let indexed = ContentDigest(hex: row.sha256),
              !LibraryLayout.nameCarries(indexed, path: relativePath)
        else { return false }
        return try holdsSameBytes(try layout.url(forRelativePath: relativePath).path, digest: indexed)
    }

    /// Puts a photo's bytes back under `relativePath`, its name, where a damaged copy of them is
    /// (or nothing is). A damaged copy is kept under `damaged/<day>/` (hard-linked there, so
    /// never deleted), and the good bytes take its name in one rename: the name never shows
    /// nothing, nor anything partial. Its rendition is put back alike; `photoIsWhole` (the photo
    /// holds its bytes already, its rendition alone was damaged) puts back the rendition alone.
    private func refile(_ photo: Photo, at relativePath: String, photoIsWhole: Bool = false) throws -> FilingResult {
        let digest = photo.contentDigest
        var keptAside: [String] = []
        if let rendition = photo.rendition {
            let renditionPath = Filer.renditionPath(of: relativePath, photo.format, rendition.format)
            let path = try layout.url(forRelativePath: renditionPath).path
            let renditionDigest = ContentDigest(of: rendition.bytes)
            if try !holdsSameBytes(path, digest: renditionDigest) {
                let staged = layout.stagingFolder.appendingPathComponent("\(UUID().uuidString).part").path
                try layout.files.writeNewFile(rendition.bytes, at: staged)
                if let aside = try put(staged, at: renditionPath) { keptAside.append(aside) }
            }
        }
        if !photoIsWhole {
            let staged = try stage(photo.content)
            defer { if staged.scratch == nil { try? layout.files.remove(staged.path) } }
            // A copy's name: the staged bytes (a scratch file keeps its name) stay where they are.
            if let aside = try putCopy(of: staged.path, at: relativePath) { keptAside.append(aside) }
            let finalPath = try layout.url(forRelativePath: relativePath).path
            guard try holdsSameBytes(finalPath, digest: digest) else {
                throw LibraryError.cannotWrite(path: finalPath, reason: "filed again, its bytes do not read back as filed")
            }
        }
        return .refiled(path: relativePath, digest: digest, damagedCopies: keptAside)
    }

    /// `put`, for a staged file that keeps its own name: a second name for its bytes (a hard link
    /// in staging) is what takes `relativePath`.
    @discardableResult
    func putCopy(of staged: String, at relativePath: String) throws -> String? {
        let ready = layout.stagingFolder.appendingPathComponent("\(UUID().uuidString).part").path
        guard try layout.files.link(staged, to: ready) == .linked else {
            throw LibraryError.cannotWrite(path: ready, reason: "a staging name was taken")
        }
        return try put(ready, at: relativePath)
    }

    /// Gives a durable staged file the name `relativePath`, keeping what stood there under
    /// `damaged/<day>/<relativePath>` first; returns where that went (nil when nothing was there).
    @discardableResult
    func put(_ staged: String, at relativePath: String) throws -> String? {
        let finalPath = try layout.url(forRelativePath: relativePath).path
        var aside: String?
        // A folder made at the name is no damaged copy to keep aside: this source fails, saying
        // so, and the import goes on.
        if try layout.files.entryType(finalPath) == .folder {
            try? layout.files.remove(staged)
            throw LibraryError.cannotWrite(path: finalPath, reason: FailureCause(
                "a folder stands at the name this was filed under; move it away and import again"))
        }
        if try layout.files.entryType(finalPath) != nil {
            let day = Quarantine.dayFormatter.string(from: Date())
            for attempt in 1...Filer.maximumCollisions {
                let suffix = attempt == 1 ? "" : "-\(attempt)"
                let ext = (relativePath as NSString).pathExtension
                let candidate = "damaged/\(day)/\((relativePath as NSString).deletingPathExtension)\(suffix)"
                    + (ext.isEmpty ? "" : ".\(ext)")
                if try layout.files.link(finalPath, to: try layout.url(forRelativePath: candidate).path) == .linked {
                    aside = candidate
                    break
                }
            }
            guard aside != nil else {
                throw LibraryError.cannotWrite(path: finalPath, reason: "its damaged copy could not be kept aside under damaged/")
            }
        }
        try layout.files.rename(staged, replacing: finalPath)
        return aside
    }

    /// Where a photo's rendition is filed: beside it, its name with the rendition's extension
    /// (`2024-03-02_141503_1a2b3c4d.heic` -> `2024-03-02_141503_1a2b3c4d.jpg`).
    public static func renditionPath(of relativePath: String, _ format: PhotoFormat,
                                     _ renditionFormat: PhotoFormat) -> String {
        String(relativePath.dropLast(format.fileExtension.count)) + renditionFormat.fileExtension
    }

    /// Links a rendition in at `relativePath`, durably; true when it is there (also when an
    /// earlier, stopped run put the same bytes there), false when the name holds other bytes.
    private func fileRendition(_ rendition: PhotoRendition, at relativePath: String) throws -> Bool {
        let path = try layout.url(forRelativePath: relativePath).path
        let digest = ContentDigest(of: rendition.bytes)
        if try layout.files.entryType(path) != nil { return try holdsSameBytes(path, digest: digest) }
        let staged = layout.stagingFolder.appendingPathComponent("\(UUID().uuidString).part").path
        try layout.files.writeNewFile(rendition.bytes, at: staged)
        defer { try? layout.files.remove(staged) }
        switch try layout.files.link(staged, to: path) {
        case .linked: return true
        case .nameTaken: return try holdsSameBytes(path, digest: digest)
        }
    }

    /// Whether every rendition the index holds of the photo at `relativePath` holds the bytes it
    /// was filed with (true when it has none indexed).
    func renditionsAreWhole(of relativePath: String) throws -> Bool {
        for rendition in try index?.renditions(ofPhoto: relativePath) ?? [] {
            guard let digest = ContentDigest(hex: rendition.sha256),
                  try holdsSameBytes(try layout.url(forRelativePath: rendition.path).path, digest: digest)
            else { return false }
        }
        return true
    }

    /// Removes what a stopped run left in staging. Call with the library lock held.
    public static func clearStaging(_ layout: LibraryLayout) throws(LibraryError) {
        let staging = layout.stagingFolder.path
        for name in try layout.files.names(in: staging) { try layout.files.remove("\(staging)/\(name)") }
    }

    /// A durable file in staging holding a photo's bytes: written here, or a scratch file.
    private struct StagedBytes {
        let path: String
        /// Set when the file is a scratch file, which keeps its name while this is held.
        let scratch: ScratchFile?
    }

    private func stage(_ content: PhotoContent) throws -> StagedBytes {
        switch content {
        case .memory(let bytes):
            let path = layout.stagingFolder.appendingPathComponent("\(UUID().uuidString).part").path
            try layout.files.writeNewFile(bytes, at: path)
            return StagedBytes(path: path, scratch: nil)
        case .file(let file) where file.folder.isInLibrary:
            try layout.files.syncFile(file.path)
            return StagedBytes(path: file.path, scratch: file)
        case .file(let file):
            // Made outside the library: copied in, since a link cannot cross file systems.
            let copy = try ScratchFile.copy(ofScratch: file.path, in: .staging(of: layout))
            try layout.files.syncFile(copy.path)
            return StagedBytes(path: copy.path, scratch: copy)
        }
    }

    /// Whether a regular file at `path` holds exactly the bytes with this digest (a missing file,
    /// a link or another picture does not). Read a chunk at a time.
    func holdsSameBytes(_ path: String, digest: ContentDigest) throws -> Bool {
        guard layout.files.isFile(path) else { return false }
        return try layout.files.digest(ofFile: path).digest == digest
    }
}
