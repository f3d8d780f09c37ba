import Foundation

/// Takes a filed item out of the library (`dossier remove`) or across to another subject
/// (`dossier move`), under the library's lock, never deleting a byte: a removed item's files are
/// kept under `removed/<day>/<their paths>`; a moved one's are filed under the other subject by
/// the names an import would have given them there (the same names: a filed name is its date
/// and digest, whatever its subject).
///
/// Each file of the item (`FiledItem`) is journalled in the index first (`RemovedItem`,
/// `planned`), then linked at its new name (a second name for the same inode), then the index is
/// changed in one transaction (`recorded`: from then on it is where it went), and only then its
/// old name removed (`done`). So a kill at any moment leaves every byte under a name the index
/// knows, and the next run that opens the library for writing (`finishInterrupted`) undoes a
/// command stopped before its transaction (the new names go) and finishes one stopped after it
/// (the old names go).
public struct FiledItemMover: Sendable {
    public let layout: LibraryLayout
    public let index: LibraryIndex

    public init(layout: LibraryLayout, index: LibraryIndex) {
        self.layout = layout
        self.index = index
    }

    /// What was done to (or, in a dry run, would be done to) one file of an item.
    public struct Step: Sendable, Equatable {
        public let role: RemovedItem.Role
        /// Where it was, relative to the root.
        public let from: String
        /// Where its bytes are now, relative to the root: under `removed/`, or its name under the
        /// other subject; nil when nothing stood at its name (removed: forgotten).
        public let to: String?
        /// For a move: its bytes were filed there already (the same photo filed for both), so no
        /// second name was made.
        public let wasThere: Bool
    }

    /// Why an item cannot be removed or moved; nothing of it was touched.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    // MARK: Finding the item

    /// The item a file of the library belongs to: the photo, video or sound filed at `path`
    /// (relative to the root), or the one a rendition, a Live Photo's movie, a raw or a sidecar
    /// filed beside it belongs to; nil when the index knows no filed file there.
    public func item(at path: String) throws(LibraryError) -> FiledItem? {
        var named = try index.filedFile(at: path)
        if named == nil, let rendition = try index.rendition(at: path) { named = try index.filedFile(at: rendition.photoPath) }
        guard let named else { return nil }
        let head = try head(of: named)
        let stem = LibraryVerifier.stem(of: head.path)
        let files = try index.filedFiles(withPathPrefix: stem).filter { file in
            file.path == head.path || isBeside(file, headStem: stem)
        }.sorted { ($0.path == head.path ? 0 : 1, $0.path) < ($1.path == head.path ? 0 : 1, $1.path) }
        var renditions: [FiledRendition] = []
        var originals: [KeptOriginal] = []
        let paths = Set(files.map(\.path))
        for file in files {
            renditions += try index.renditions(ofPhoto: file.path)
            // An original kept for this item's source alone goes with it; one another filed file
            // came from too (the same photo filed for another subject) stays for that one.
            if let source = file.sourceSha256, !originals.contains(where: { $0.sha256 == source }),
               try index.filedFiles(fromSourceWithDigest: source).allSatisfy({ paths.contains($0.path) }) {
                originals += try index.originals(sha256: source)
            }
        }
        return FiledItem(files: files, renditions: renditions, originals: originals)
    }

    /// The file a filed file stands beside under its name (a Live Photo's still for its movie, a
    /// JPEG for its raw, a photo for its sidecar), or itself when it stands under a name of its own
    /// (one that carries its own digest), or beside nothing.
    private func head(of file: FiledFile) throws(LibraryError) -> FiledFile {
        guard !FiledItemMover.carriesOwnDigest(file) else { return file }
        let folder = (file.path as NSString).deletingLastPathComponent
        for stem in LibraryVerifier.stemCandidates(of: file.path) {
            let heads = try index.filedFiles(withPathPrefix: stem).filter {
                LibraryVerifier.stem(of: $0.path) == stem && ($0.path as NSString).deletingLastPathComponent == folder
                    && FiledItemMover.carriesOwnDigest($0)
            }
            if let head = heads.first { return head }
        }
        return file
    }

    /// Whether `file` stands beside the file whose name without its extension is `headStem`:
    /// in its folder, under that stem (or it with a collision suffix), its name not its own.
    private func isBeside(_ file: FiledFile, headStem: String) -> Bool {
        (file.path as NSString).deletingLastPathComponent == (headStem as NSString).deletingLastPathComponent
            && LibraryVerifier.stemCandidates(of: file.path).contains(headStem)
            && !FiledItemMover.carriesOwnDigest(file)
    }

    static func carriesOwnDigest(_ file: FiledFile) -> Bool {
        ContentDigest(hex: file.sha256).map { LibraryLayout.nameCarries($0, path: file.path) } ?? false
    }

    // MARK: Removing

    /// Takes the item out of its subject's folder, keeping each of its files under
    /// `removed/<day>/<its path>`; one missing (deleted by hand) is forgotten. With `dryRun`,
    /// says what it would do and touches nothing.
    public func remove(_ item: FiledItem, dryRun: Bool = false) throws -> [Step] {
        let now = ImportPipeline.now()
        let day = Quarantine.dayFormatter.string(from: Date())
        var rows: [RemovedItem] = []
        var takenNames = Set<String>()
        for (role, path, sha256, source) in item.parts {
            let absolute = try layout.url(forRelativePath: path).path
            var keptAt: String?
            switch try layout.files.entryType(absolute) {
            case nil:
                keptAt = nil
            case .file?:
                keptAt = try freeName(under: "removed/\(day)", for: path, avoiding: &takenNames)
            case let other?:
                throw Refusal(description: "\(path): \(other == .folder ? "a folder" : other == .symbolicLink ? "a link" : "something other than a file") "
                    + "stands at its name, not the file filed there; move it away first")
            }
            rows.append(RemovedItem(command: .remove, role: role, path: path, subject: item.subject, sha256: sha256,
                                    sourceSha256: source, bytesAt: keptAt, at: now))
        }
        let steps = rows.map { Step(role: $0.role, from: $0.path, to: $0.bytesAt, wasThere: false) }
        guard !dryRun else { return steps }
        try carryOut(rows, newPaths: [:], toSubject: nil, filed: [], renditions: [], originals: [])
        return steps
    }

    /// `removed/<day>/<path>`, else with `-2`, `-3`... before its extension, the first name
    /// nothing stands at (an earlier removal the same day of a file at the same path keeps its own).
    private func freeName(under folder: String, for path: String, avoiding taken: inout Set<String>) throws -> String {
        let stem = (path as NSString).deletingPathExtension, ext = (path as NSString).pathExtension
        for attempt in 1...Filer.maximumCollisions {
            let candidate = "\(folder)/\(stem)\(attempt == 1 ? "" : "-\(attempt)")" + (ext.isEmpty ? "" : ".\(ext)")
            if !taken.contains(candidate), try layout.files.entryType(try layout.url(forRelativePath: candidate).path) == nil {
                taken.insert(candidate)
                return candidate
            }
        }
        throw Refusal(description: "\(path): \(Filer.maximumCollisions) files removed today already hold its name under \(folder)")
    }

    // MARK: Moving

    /// Files the item under `subject` as an import would have (the same names, a collision
    /// suffix where the name holds other bytes there; a movie or raw filed beside a still that
    /// is not with it takes a name of its own), and takes it out of its subject's folder. Every
    /// file must hold the bytes it was filed with: a missing or damaged one is refused, naming
    /// what mends it. With `dryRun`, says what it would do and touches nothing.
    public func move(_ item: FiledItem, to subject: Subject, dryRun: Bool = false) throws -> [Step] {
        // Its own subject only for a movie under the name of a still that is not beside it (a
        // Live Photo's movie filed alone under another subject's still's name): to a name of its own.
        let besideNothing = item.files.count == 1 && !FiledItemMover.carriesOwnDigest(item.head)
            && LibraryVerifier.isMovieBesideNothing(item.head.path, formats: layout.photoFormats)
        guard item.subject != subject.path || besideNothing else {
            throw Refusal(description: "\(item.head.path): it is filed under \(subject.path) already")
        }
        let filer = Filer(layout: layout, index: nil, dryRun: true)
        for (_, path, sha256, _) in item.parts {
            let absolute = try layout.url(forRelativePath: path).path
            guard let digest = ContentDigest(hex: sha256) else { continue }
            if try layout.files.entryType(absolute) == nil {
                throw Refusal(description: "\(path) is missing: `dossier verify --repair` files it again first, "
                    + "or `dossier remove \(path)` forgets it")
            }
            if try !filer.holdsSameBytes(absolute, digest: digest) {
                throw Refusal(description: "\(path) is damaged (its bytes are not the ones filed): `dossier verify --repair` "
                    + "files it again first")
            }
        }
        let now = ImportPipeline.now()
        let oldSubject = item.subject
        // The head's name there, then each file beside it and each rendition under that name.
        let headStem = LibraryVerifier.stem(of: item.head.path)
        let newHead = try newName(of: item.head, in: subject, from: oldSubject)
        let newHeadStem = LibraryVerifier.stem(of: newHead.path)
        var stems = [headStem: newHeadStem]
        var rows: [RemovedItem] = []
        var newPaths: [String: String] = [:]
        var filed: [FiledFile] = []
        var renditions: [FiledRendition] = []
        var originals: [KeptOriginal] = []
        var wasThere = Set<String>()
        func claim(_ path: String, digest: String) throws -> Bool {
            let absolute = try layout.url(forRelativePath: path).path
            if try layout.files.entryType(absolute) == nil { return false }
            if let digest = ContentDigest(hex: digest), try filer.holdsSameBytes(absolute, digest: digest) { return true }
            throw Refusal(description: "\(subject.path) holds other bytes at \(path) already; nothing was moved")
        }
        for file in item.files {
            let stem = LibraryVerifier.stem(of: file.path)
            let target: String
            if file.path == item.head.path {
                target = newHead.path
            } else {
                target = newHeadStem + String(file.path.dropFirst(headStem.count))
                stems[stem] = LibraryVerifier.stem(of: target)
            }
            if try claim(target, digest: file.sha256) { wasThere.insert(target) }
            newPaths[file.path] = target
            var moved = file
            moved.path = target
            moved.subject = subject.path
            filed.append(moved)
            rows.append(RemovedItem(command: .move, role: .filed, path: file.path, subject: oldSubject, sha256: file.sha256,
                                    sourceSha256: file.sourceSha256, bytesAt: target, at: now))
        }
        for rendition in item.renditions {
            let photoStem = LibraryVerifier.stem(of: rendition.photoPath)
            guard let newStem = stems[photoStem], let photo = newPaths[rendition.photoPath] else { continue }
            let target = newStem + String(rendition.path.dropFirst(photoStem.count))
            if try claim(target, digest: rendition.sha256) { wasThere.insert(target) }
            var moved = rendition
            moved.path = target
            moved.photoPath = photo
            renditions.append(moved)
            rows.append(RemovedItem(command: .move, role: .rendition, path: rendition.path, subject: oldSubject,
                                    sha256: rendition.sha256, sourceSha256: nil, bytesAt: target, at: now))
        }
        for original in item.originals {
            // Named after the photo filed from it (`originals/<its path>`): renamed with it. One
            // named otherwise, damaged, or whose new name holds other bytes stays where it is.
            guard let file = item.files.first(where: { $0.sourceSha256 == original.sha256 }),
                  let newStem = stems[LibraryVerifier.stem(of: file.path)],
                  original.path.hasPrefix("originals/\(LibraryVerifier.stem(of: file.path))"),
                  let digest = ContentDigest(hex: original.sha256),
                  try filer.holdsSameBytes(try layout.url(forRelativePath: original.path).path, digest: digest)
            else { continue }
            let target = "originals/\(newStem)" + String(original.path.dropFirst("originals/\(LibraryVerifier.stem(of: file.path))".count))
            guard let there = try? claim(target, digest: original.sha256) else { continue }
            if there { wasThere.insert(target) }
            originals.append(KeptOriginal(sha256: original.sha256, path: target, size: original.size))
            rows.append(RemovedItem(command: .move, role: .original, path: original.path, subject: oldSubject,
                                    sha256: original.sha256, sourceSha256: original.sha256, bytesAt: target, at: now))
        }
        let steps = rows.map {
            Step(role: $0.role, from: $0.path, to: $0.bytesAt, wasThere: wasThere.contains($0.bytesAt ?? ""))
        }
        guard !dryRun else { return steps }
        try carryOut(rows, newPaths: newPaths, toSubject: subject.path, filed: filed, renditions: renditions, originals: originals)
        return steps
    }

    /// The name `file` takes under `subject`: its own name there (the first of it and its
    /// collision suffixes that is free or holds its bytes); a movie or raw named after a still it
    /// does not stand beside takes the name an import gives it alone (its date and its digest).
    private func newName(of file: FiledFile, in subject: Subject, from oldSubject: String) throws
        -> (path: String, wasThere: Bool)
    {
        let inSubject = String(file.path.dropFirst(oldSubject.count + 1))
        let ext = (file.path as NSString).pathExtension
        let format = layout.photoFormats.format(forExtension: ext)
        let filer = Filer(layout: layout, index: nil, dryRun: true)
        guard let digest = ContentDigest(hex: file.sha256) else {
            throw Refusal(description: "\(file.path): the index holds no digest of it")
        }
        var candidates: [String]
        if FiledItemMover.carriesOwnDigest(file) {
            let stem = (inSubject as NSString).deletingPathExtension
            let base = FiledItemMover.withoutCollisionSuffix(stem)
            candidates = (0..<Filer.maximumCollisions).map { "\(subject.path)/\(base)\($0 == 0 ? "" : "-\($0 + 1)").\(ext)" }
        } else if let format, format.isVideo || format.joinsItsStill,
                  let date = FiledItemMover.localDate(file.capturedAt) ?? IndexRebuilder.captureDate(fromName: file.path) {
            candidates = (0..<Filer.maximumCollisions).map {
                layout.photoPath(for: subject, takenAt: date, digest: digest, format: format, collisionIndex: $0)
            }
        } else {
            candidates = ["\(subject.path)/\(inSubject)"]
        }
        for candidate in candidates {
            let absolute = try layout.url(forRelativePath: candidate).path
            if try layout.files.entryType(absolute) == nil { return (candidate, false) }
            if try filer.holdsSameBytes(absolute, digest: digest) { return (candidate, true) }
        }
        throw Refusal(description: "\(subject.path) holds other files under every name \(file.path) could take there")
    }

    /// `..._1a2b3c4d` of `..._1a2b3c4d-2`: a filed name without its collision suffix.
    static func withoutCollisionSuffix(_ stem: String) -> String {
        let candidates = LibraryVerifier.stemCandidates(of: stem + ".x")
        return candidates.count > 1 ? candidates[1] : stem
    }

    /// The wall clock of an index's `captured_at` (`2024-03-02T14:15:03`, an offset after it).
    static func localDate(_ text: String?) -> LocalDateTime? {
        guard let text, text.count >= 19 else { return nil }
        let digits = text.prefix(19).split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard digits.count == 6 else { return nil }
        return LocalDateTime(year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4], second: digits[5])
    }

    // MARK: Carrying it out

    /// The journal, the new names, the index's one transaction, the old names: see the type.
    private func carryOut(_ planned: [RemovedItem], newPaths: [String: String], toSubject: String?, filed: [FiledFile],
                          renditions: [FiledRendition], originals: [KeptOriginal]) throws {
        let rows = try index.plan(planned)
        FiledItemMover.halt(at: "planned")
        do {
            try link(rows)
        } catch {
            // A name that could not be made (no room): the ones made go, and nothing was moved.
            try? undo(rows)
            throw error
        }
        FiledItemMover.halt(at: "linked")
        do {
            try index.takeOut(rows, newPaths: newPaths, toSubject: toSubject, filed: filed, renditions: renditions,
                              originals: originals)
        } catch {
            try? undo(rows)
            throw error
        }
        FiledItemMover.halt(at: "recorded")
        try finish(rows)
    }

    /// Links each file's bytes at its new name, a second name for the same file; one there with
    /// the same bytes already (the same photo filed for that subject) stands.
    private func link(_ rows: [RemovedItem]) throws {
        for row in rows {
            guard let bytesAt = row.bytesAt else { continue }
            let from = try layout.url(forRelativePath: row.path).path
            let to = try layout.url(forRelativePath: bytesAt).path
            if case .nameTaken = try layout.files.link(from, to: to) {
                // Its bytes there already (the same photo filed for that subject), or this very
                // file: either way they are under the new name.
                let sameFile = layout.files.fileIdentity(from).map { ours in
                    layout.files.fileIdentity(to).map { $0 == ours } ?? false
                } ?? false
                guard let digest = ContentDigest(hex: row.sha256),
                      try sameFile || Filer(layout: layout, index: nil, dryRun: true).holdsSameBytes(to, digest: digest)
                else {
                    throw Refusal(description: "\(bytesAt) was taken by other bytes meanwhile; nothing was moved")
                }
            }
            FiledItemMover.halt(at: "linked-one")
        }
    }

    /// Removes each old name whose bytes are now under the new one (the same file, or the same
    /// bytes), and marks the rows done. An old name that holds other bytes now stays.
    private func finish(_ rows: [RemovedItem]) throws {
        var folders = Set<String>()
        for row in rows {
            guard let bytesAt = row.bytesAt else { continue }
            let old = try layout.url(forRelativePath: row.path).path
            let new = try layout.url(forRelativePath: bytesAt).path
            guard let oldFile = layout.files.fileIdentity(old) else { continue }
            let sameFile = layout.files.fileIdentity(new).map { $0 == oldFile } ?? false
            if !sameFile {
                guard let digest = ContentDigest(hex: row.sha256) else { continue }
                let filer = Filer(layout: layout, index: nil, dryRun: true)
                guard try filer.holdsSameBytes(new, digest: digest), try filer.holdsSameBytes(old, digest: digest) else { continue }
            }
            try layout.files.remove(old)
            folders.insert((old as NSString).deletingLastPathComponent)
            FiledItemMover.halt(at: "unlinked-one")
        }
        for folder in folders.sorted() { try layout.files.syncFolder(folder) }
        try index.finishRemovals(rows.compactMap(\.id))
    }

    /// Takes back the new names of a command stopped before its transaction: each that is a
    /// second name of the file still at its old name. Its rows are forgotten.
    private func undo(_ rows: [RemovedItem]) throws {
        for row in rows {
            guard let bytesAt = row.bytesAt else { continue }
            let old = try layout.url(forRelativePath: row.path).path
            let new = try layout.url(forRelativePath: bytesAt).path
            guard let ours = layout.files.fileIdentity(old), let theirs = layout.files.fileIdentity(new), ours == theirs else { continue }
            try layout.files.remove(new)
            try layout.files.syncFolder((new as NSString).deletingLastPathComponent)
        }
        try index.forgetPlannedRemovals(rows.compactMap(\.id))
    }

    /// Undoes what a removal or move stopped before its transaction linked, and finishes what
    /// one stopped after it left; what it did, for a notice. Call with the library's lock held.
    @discardableResult
    public static func finishInterrupted(_ layout: LibraryLayout, index: LibraryIndex) throws(LibraryError) -> (undone: Int, finished: Int) {
        let unfinished = try index.unfinishedRemovals()
        guard !unfinished.isEmpty else { return (0, 0) }
        let mover = FiledItemMover(layout: layout, index: index)
        let planned = unfinished.filter { $0.state == .planned }
        let recorded = unfinished.filter { $0.state == .recorded }
        do {
            if !planned.isEmpty { try mover.undo(planned) }
            if !recorded.isEmpty { try mover.finish(recorded) }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .cannotWrite(path: layout.root.path, reason: FailureCause("\(error)"))
        }
        return (Set(planned.map(\.at)).count, Set(recorded.map(\.at)).count)
    }

    // MARK: Stopping on purpose (tests)

    /// The point named by `DOSSIER_TEST_HALT` (`planned`, `linked-one`, `linked`, `recorded`,
    /// `unlinked-one`), where the process kills itself as a power cut would: how the safety
    /// tests stop a removal or move at each step.
    private static let haltPoint = ProcessInfo.processInfo.environment["DOSSIER_TEST_HALT"]

    static func halt(at point: String) {
        if haltPoint == point { kill(getpid(), SIGKILL) }
    }
}

// MARK: - FiledItem

/// One item of the library, as `dossier remove` and `dossier move` take it: a photo, video or
/// sound, with the files filed beside it under its name (a Live Photo's movie, a raw, sidecars),
/// the renditions made from them, and the originals kept of their sources alone.
public struct FiledItem: Sendable {
    /// The photo, video or sound first, then the files beside it.
    public let files: [FiledFile]
    public let renditions: [FiledRendition]
    public let originals: [KeptOriginal]

    public var head: FiledFile { files[0] }
    public var subject: String { head.subject }

    /// Each file, with its role, path, digest and its source's digest.
    var parts: [(RemovedItem.Role, String, String, String?)] {
        files.map { (.filed, $0.path, $0.sha256, $0.sourceSha256) }
            + renditions.map { (.rendition, $0.path, $0.sha256, nil) }
            + originals.map { (.original, $0.path, $0.sha256, $0.sha256) }
    }
}
