import Foundation

/// Where sources that could not be filed go, so an inbox never fills with files retried
/// forever: `<library>/quarantine/<YYYY-MM-DD>/<name>`, with `<name>.error.json` beside it
/// saying where it came from and why (`QuarantineEntry`).
///
/// A source enters whole or not at all: its note is written first (a note without its file is
/// passed over, and its name used again), then the file is moved in without replacing anything
/// (`LibraryFileSystem.moveIn`), and only then does its inbox name go. A source found already
/// quarantined with the same bytes (a crash between copying it in and removing it) is only
/// removed from the inbox.
public struct Quarantine: Sendable {
    public static let noteSuffix = ".error.json"

    public let layout: LibraryLayout

    public init(layout: LibraryLayout) {
        self.layout = layout
    }

    /// Moves the source into the quarantine with a note of why: only the very file it was found as
    /// (a link put in its place, or another file, is refused). A link that was followed (to a file
    /// of the inbox) is quarantined as a copy of that file's bytes; then the link goes. A link not
    /// followed (out of the inbox, to another user's file, to a folder) is refused: nothing it
    /// leads to ever enters the library.
    @discardableResult
    public func admit(_ source: SourceFile, stage: ImportStage, reason: String, at now: Date = Date()) throws(LibraryError)
        -> QuarantineEntry
    {
        // The library's own files (seen through a mount of it in the inbox, say) are never moved
        // into its quarantine: that would take the library apart.
        guard !LibraryBoundary(root: layout.root.path).contains(source.path) else {
            throw .cannotRead(path: source.path, reason: "it lies inside the library; its own files are never quarantined")
        }
        let (size, digest) = try Quarantine.digest(of: source)
        // Only removed once the quarantined copy is read back and holds these very bytes: the note
        // alone is not trusted with the user's only copy.
        let name = SourcePath.displayed(source.fileName)
        if let already = try entries(namedLike: name).first(where: { $0.originalPath == source.path && $0.sha256 == digest.hex }),
           try layout.files.digest(ofFile: try path(of: already)) == (size, digest) {
            if SourcePath.withFileSystemPath(source.path, { unlink($0) }) != 0 && errno != ENOENT {
                throw .cannotWrite(path: source.path, reason: .errno())
            }
            return already
        }
        let day = Quarantine.dayFormatter.string(from: now)
        let folder = layout.quarantineFolder.appendingPathComponent(day).path
        try layout.files.createFolders(folder)
        for attempt in 1...1000 {
            let candidate = Quarantine.name(name, attempt: attempt)
            let path = "\(folder)/\(candidate)"
            // A note without its file was left by a quarantine that stopped halfway: its name is
            // used again, the note written anew.
            guard try layout.files.entryType(path) == nil else { continue }
            let entry = QuarantineEntry(id: "\(day)/\(candidate)", originalPath: source.path, inbox: source.namedFolder,
                                        stage: stage, reason: reason,
                                        quarantinedAt: ISO8601DateFormatter().string(from: now),
                                        version: DossierVersion.current, sha256: digest.hex, size: size)
            try writeNote(entry)
            // A quarantine that fails leaves nothing half-made: not its note without its file (a
            // full disk), nor a copy of a source that could not be taken out of the inbox (a
            // folder the daemon may not write): the source, still there, is the one copy.
            let result: LibraryFileSystem.LinkResult
            do {
                result = try layout.files.moveIn(source, to: path, stagingFolder: layout.stagingFolder.path)
            } catch {
                if SourcePath.status(source.path, followingLinks: false) != nil { try? layout.files.remove(path) }
                try? layout.files.remove(path + Quarantine.noteSuffix)
                throw error
            }
            switch result {
            case .linked: return entry
            case .nameTaken:
                try? layout.files.remove(path + Quarantine.noteSuffix)
                continue
            }
        }
        throw .cannotWrite(path: "\(folder)/\(name)", reason: "a thousand files of that name are in quarantine already")
    }

    /// Every quarantined source, oldest day first.
    public func entries() throws(LibraryError) -> [QuarantineEntry] {
        try entries(namedLike: nil)
    }

    /// The quarantined sources, or only those a source of this name would have been given
    /// (`name`, `name (2)`, ...): admitting one source reads those notes, not the whole quarantine.
    private func entries(namedLike sourceName: String?) throws(LibraryError) -> [QuarantineEntry] {
        // The names it was given: itself (or, shortened, with its hash mark), then ` (2)`, ` (3)`...
        let first = sourceName.map { Quarantine.name($0, attempt: 1) }
        let stem = first.map { ($0 as NSString).deletingPathExtension }
        // A shortened name keeps `~` and eight hex digits of the whole name's hash, whatever else was cut.
        let mark = first.flatMap { first -> String? in
            guard first != sourceName, let tilde = first.lastIndex(of: "~") else { return nil }
            return String(first[tilde...].prefix(9))
        }
        var found: [QuarantineEntry] = []
        for day in try layout.files.names(in: layout.quarantineFolder.path).sorted() {
            let folder = layout.quarantineFolder.appendingPathComponent(day).path
            for note in try layout.files.names(in: folder).sorted() where note.hasSuffix(Quarantine.noteSuffix) {
                let name = String(note.dropLast(Quarantine.noteSuffix.count))
                if let first, let stem, name != first, !name.hasPrefix(stem + " ("),
                   !(mark.map { name.contains($0) } ?? false) { continue }
                guard layout.files.isFile("\(folder)/\(name)"),
                      let bytes = try? layout.files.readFile("\(folder)/\(note)", limit: 1 << 20),
                      var entry = try? JSONDecoder().decode(QuarantineEntry.self, from: Data(bytes))
                else { continue }
                entry.id = "\(day)/\(name)"
                found.append(entry)
            }
        }
        return found
    }

    /// The quarantined file's absolute path.
    public func path(of entry: QuarantineEntry) throws(LibraryError) -> String {
        try layout.url(forRelativePath: "quarantine/\(entry.id)").path
    }

    /// The source as the pipeline takes it again: read from the quarantine, routed by its
    /// original path.
    public func source(of entry: QuarantineEntry) throws(LibraryError) -> SourceFile {
        let path = try path(of: entry)
        guard let info = SourcePath.status(path, followingLinks: false), info.st_mode & S_IFMT == S_IFREG else {
            throw .missing(path: path)
        }
        return SourceFile(path: entry.originalPath, info: info, readPath: path,
                          namedFolder: entry.inbox ?? (entry.originalPath as NSString).deletingLastPathComponent)
    }

    /// Takes a source out of the quarantine, with its note (the file first: a note left alone is
    /// passed over, where a file without its note would be hidden).
    public func remove(_ entry: QuarantineEntry) throws(LibraryError) {
        let path = try path(of: entry)
        try layout.files.remove(path)
        try layout.files.remove(path + Quarantine.noteSuffix)
        try layout.files.syncFolder((path as NSString).deletingLastPathComponent)
    }

    /// Says, after a retry that failed again, why now.
    public func update(_ entry: QuarantineEntry) throws(LibraryError) {
        try writeNote(entry)
    }

    private func writeNote(_ entry: QuarantineEntry) throws(LibraryError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let bytes: Data
        do { bytes = try encoder.encode(entry) } catch {
            throw .cannotWrite(path: entry.id, reason: "\(error)")
        }
        let path = try path(of: entry) + Quarantine.noteSuffix
        try layout.files.replaceFile(at: path, with: Array(bytes) + [0x0A], stagingFolder: layout.stagingFolder.path)
    }

    /// The longest name a file system gives a file (NAME_MAX), in bytes.
    static let longestName = 255

    /// `IMG_1.jpg`, then `IMG_1 (2).jpg`, `IMG_1 (3).jpg`... A name that would be too long for the
    /// file system with its note's suffix (a Korean name of 82 characters is 246 bytes) is
    /// shortened, keeping its start, its extension and, after a `~`, eight hex digits of its hash,
    /// so two long names that start alike stay apart; the note keeps the original path whole.
    static func name(_ name: String, attempt: Int) -> String {
        let room = longestName - noteSuffix.utf8.count
        var stem = (name as NSString).deletingPathExtension
        var ext = (name as NSString).pathExtension
        if stem.isEmpty || ext.utf8.count > 16 { (stem, ext) = (name, "") }
        let counter = attempt > 1 ? " (\(attempt))" : ""
        let dotExt = ext.isEmpty ? "" : ".\(ext)"
        guard stem.utf8.count + counter.utf8.count + dotExt.utf8.count > room else { return stem + counter + dotExt }
        let mark = "~" + ContentDigest(of: Array(name.utf8)).shortHex
        while stem.utf8.count + mark.utf8.count + counter.utf8.count + dotExt.utf8.count > room { stem.removeLast() }
        return stem + mark + counter + dotExt
    }

    /// The size and digest of the bytes to quarantine: the file's, or (for a link followed) its
    /// target's; only the very file that was found (`SourceFile.openForReading`).
    private static func digest(of source: SourceFile) throws(LibraryError) -> (Int64, ContentDigest) {
        let descriptor: Int32
        do { descriptor = try source.openForReading() } catch {
            if case .unreadable(let reason) = error { throw .cannotRead(path: source.path, reason: FailureCause(reason)) }
            throw .cannotRead(path: source.path, reason: "\(error)")
        }
        defer { close(descriptor) }
        do { return try ScratchFile.hash(descriptor) } catch { throw .cannotRead(path: source.path, reason: "\(error)") }
    }

    /// `2026-11-25`: the day folders of the quarantine and of `damaged/`.
    static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()
}
