import Foundation

/// Rebuilds the index from the subject folders, which are the truth: every file under
/// `<kind>/<id>/photos/` and `<kind>/<id>/videos/` is hashed and recorded, the renditions beside
/// a HEIC (or a TIFF, a raw) as its renditions, hashed as they are (the layout's formats, as the
/// plugins registered them, tell which they are). What only the index knew (which source a file came from) is lost, so
/// the next import of an old source decodes it again and then finds its filed bytes already there.
public struct IndexRebuilder: Sendable {
    public let layout: LibraryLayout

    public init(layout: LibraryLayout) {
        self.layout = layout
    }

    /// Fills an open index from the folders (the caller holds the lock): how many photos and
    /// year files of records it indexed, and the filed files whose bytes are not the ones their
    /// names were made from (damaged before the rebuild: indexed as they are, for `dossier
    /// verify` to name, and for the next import of their source to file again).
    public func rebuild(into index: LibraryIndex) throws -> (photos: Int, recordFiles: Int, misnamed: [VerificationFinding]) {
        let (files, renditions) = try filedFiles()
        let kept = try keptSources()
        let (records, yearFiles) = try recordFiles(kept: kept)
        let siblings = Dictionary(grouping: files.map(\.path), by: LibraryVerifier.stem(of:))
        let misnamed = files.compactMap { file -> VerificationFinding? in
            LibraryVerifier.digestNamed(by: file.path, for: file.sha256, formats: layout.photoFormats, siblings: siblings).map {
                VerificationFinding(kind: .damaged, path: file.path,
                                    reason: "its bytes hash to \(file.sha256.prefix(16)); its name says \($0)")
            }
        }
        try index.replaceFiledFiles(with: files, renditions: renditions, recordFiles: records, keptSources: kept, originals: try originals(),
                                    sourceYearFiles: yearFiles, damaged: misnamed.map(\.path))
        return (files.count, records.count, misnamed)
    }

    /// Each year file of records, counted and hashed, and which versions of which sources (their
    /// kept copies) gave records to it, as the records' `source` says. Where each version stands
    /// in its source's history only the lost index knew; what the disk shows is taken, and no
    /// more: the version whose bytes the file at its path still holds is current (the others of
    /// that path superseded); when the path holds none of them (gone, or a new file there) they
    /// all departed, so no file there replaces their records. An edit made since then is then
    /// added beside them rather than replacing: records may stand twice, none is lost.
    func recordFiles(kept: [KeptSource]) throws -> ([RecordFileSummary], [SourceYearFile]) {
        let store = RecordStore(layout: layout)
        var uses = Set<SourceYearFile>()
        let summaries = try layout.existingSubjects().sorted().flatMap { subject in
            try store.yearFiles(of: subject).map { file in
                let bytes = try layout.files.readFile(try layout.url(forRelativePath: file.path).path)
                let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
                for line in lines {
                    if let source = IndexRebuilder.source(ofLine: line), let kept = source.kept {
                        uses.insert(SourceYearFile(sourcePath: source.path, keptPath: kept, yearFile: file.path))
                    }
                }
                return RecordFileSummary(path: file.path, subject: subject.path, year: file.year, count: lines.count,
                                         sha256: ContentDigest(of: bytes).hex)
            }
        }
        let digests = Dictionary(kept.map { ($0.path, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        let departed = ISO8601DateFormatter().string(from: Date())
        var placed: [SourceYearFile] = []
        for (path, versions) in Dictionary(grouping: uses, by: \.sourcePath) {
            let current = IndexRebuilder.versionHeld(at: path, among: Set(versions.map(\.keptPath)), digests: digests)
            for var version in versions {
                version.superseded = current != nil && version.keptPath != current?.keptPath
                version.departedAt = current == nil ? departed : nil
                // Its very bytes at its path: that file is the version, and an edit of it in place is one.
                if version.keptPath == current?.keptPath { version.file = current?.file }
                placed.append(version)
            }
        }
        let sorted = placed.sorted { ($0.sourcePath, $0.keptPath, $0.yearFile) < ($1.sourcePath, $1.keptPath, $1.yearFile) }
        return (summaries, sorted)
    }

    /// Of the versions of a source (its kept copies, with their digests), the one whose bytes the
    /// file at `path` holds now, and that file (its device, inode and birth time, where its file
    /// system keeps one); nil when there is no file there or it holds none of them.
    static func versionHeld(at path: String, among keptCopies: Set<String>, digests: [String: String])
        -> (keptPath: String, file: (identity: FileIdentity, birthTime: Int64)?)? {
        let descriptor = SourcePath.openForReading(path)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, let digest = try? ScratchFile.hash(descriptor).1.hex,
              let kept = keptCopies.first(where: { digests[$0] == digest }) else { return nil }
        let identity = FileIdentity(info)
        return (kept, SourcePath.birthTime(of: path, identity: identity, followingLink: true).map { (identity, $0) })
    }

    /// A record line's `source` object (the last field of every line `RecordLine` writes).
    static func source(ofLine line: ArraySlice<UInt8>) -> RecordSource? {
        let marker = Array(#","source":"#.utf8)
        guard line.count > marker.count + 2, line.last == UInt8(ascii: "}") else { return nil }
        var index = line.endIndex - marker.count
        while index >= line.startIndex {
            if line[index..<index + marker.count].elementsEqual(marker) {
                return try? JSONDecoder().decode(RecordSource.self, from: Data(line[(index + marker.count)..<(line.endIndex - 1)]))
            }
            index -= 1
        }
        return nil
    }

    /// Every file under `sources/`, hashed: the kept copies of text sources.
    func keptSources() throws -> [KeptSource] {
        let folder = layout.root.appendingPathComponent("sources").path
        return try layout.files.names(in: folder).sorted().compactMap { name in
            let path = "\(folder)/\(name)"
            guard !name.hasPrefix("."), layout.files.isFile(path) else { return nil }
            let bytes = try layout.files.readFile(path)
            return KeptSource(sha256: ContentDigest(of: bytes).hex, path: "sources/\(name)", size: Int64(bytes.count))
        }
    }

    /// Every file under `originals/`, hashed: the photos' sources kept there.
    func originals(under relative: String = "originals") throws -> [KeptOriginal] {
        let folder = try layout.url(forRelativePath: relative).path
        var found: [KeptOriginal] = []
        for name in try layout.files.names(in: folder).sorted() where !name.hasPrefix(".") {
            let path = "\(relative)/\(name)"
            switch try layout.files.entryType("\(folder)/\(name)") {
            case .folder?: found += try originals(under: path)
            case .file?:
                let (size, digest) = try layout.files.digest(ofFile: "\(folder)/\(name)")
                found.append(KeptOriginal(sha256: digest.hex, path: path, size: size))
            default: continue
            }
        }
        return found
    }

    func filedFiles() throws -> (files: [FiledFile], renditions: [FiledRendition]) {
        let filedAt = ISO8601DateFormatter().string(from: Date())
        var files: [FiledFile] = []
        var renditions: [FiledRendition] = []
        for subject in layout.existingSubjects().sorted() {
            for folder in ["photos", "videos", "audio"] {
                let found = try filedFiles(in: folder, of: subject, filedAt: filedAt)
                files += found.files
                renditions += found.renditions
            }
        }
        return (files, renditions)
    }

    /// Every file under `<kind>/<id>/<folder>/`, hashed: the renditions apart.
    private func filedFiles(in folder: String, of subject: Subject, filedAt: String) throws
        -> (files: [FiledFile], renditions: [FiledRendition])
    {
        let root = layout.folder(for: subject).appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return ([], []) }
        var files: [FiledFile] = []
        var renditions: [FiledRendition] = []
        while let relative = enumerator.nextObject() as? String {
            let path = "\(subject.path)/\(folder)/\(relative)"
            let url = try layout.url(forRelativePath: path)
            guard !DurableFileSystem.isFolder(url.path), !(relative as NSString).lastPathComponent.hasPrefix(".")
            else { continue }
            guard layout.files.isFile(url.path) else { continue }
            // Read a chunk at a time: a video may be gigabytes.
            let (size, digest) = try layout.files.digest(ofFile: url.path)
            if let photo = photo(ofRendition: path, digest: digest) {
                renditions.append(FiledRendition(path: path, photoPath: photo, sha256: digest.hex, size: size, filedAt: filedAt))
                continue
            }
            files.append(FiledFile(path: path, subject: subject.path, sha256: digest.hex,
                                   sourceSha256: nil, size: size,
                                   capturedAt: IndexRebuilder.captureDate(fromName: relative)?.iso8601,
                                   filedAt: filedAt))
        }
        return (files, renditions)
    }

    /// The photo beside which the file at `path` (relative to the root) is a rendition (a HEIC's
    /// or a TIFF's `.jpg` or `.png`): made from the photo, not filed from a source, so not a
    /// photo of its own; nil when it is none. The plugins' formats say which: a still beside a
    /// photo of the same name that has a rendition, and whose bytes are not the ones its name was
    /// made from (a camera's JPEG filed with its raw beside it carries its own digest in its
    /// name; a rendition carries the photo's).
    private func photo(ofRendition path: String, digest: ContentDigest) -> String? {
        let formats = layout.photoFormats
        guard let format = formats.format(forExtension: (path as NSString).pathExtension), format.isRenditionFormat,
              !LibraryLayout.nameCarries(digest, path: path)
        else {
            return nil
        }
        let stem = LibraryVerifier.stem(of: path)
        return formats.all.filter(\.hasRendition).map { "\(stem).\($0.fileExtension)" }.first { photo in
            (try? layout.url(forRelativePath: photo)).map { layout.files.isFile($0.path) } == true
        }
    }

    /// The renditions beside `photos` (filed rows), hashed as they are: what an index made before
    /// renditions were indexed learns of them (the `v8-renditions` migration).
    func renditions(beside photos: [FiledFile], filedAt: String) throws -> [FiledRendition] {
        let formats = layout.photoFormats
        let extensions = Set(formats.all.filter(\.isRenditionFormat).map(\.fileExtension)).sorted()
        var renditions: [FiledRendition] = []
        for photo in photos where formats.format(forExtension: (photo.path as NSString).pathExtension)?.hasRendition == true {
            for ext in extensions {
                let path = "\(LibraryVerifier.stem(of: photo.path)).\(ext)"
                guard let url = try? layout.url(forRelativePath: path), layout.files.isFile(url.path) else { continue }
                let (size, digest) = try layout.files.digest(ofFile: url.path)
                guard !LibraryLayout.nameCarries(digest, path: path) else { continue }
                renditions.append(FiledRendition(path: path, photoPath: photo.path, sha256: digest.hex, size: size, filedAt: filedAt))
            }
        }
        return renditions
    }

    /// The date a filed photo's name carries: `2024/2024-03-02_141503_1a2b3c4d.jpg`.
    public static func captureDate(fromName relative: String) -> LocalDateTime? {
        let name = (relative as NSString).lastPathComponent
        let digits = name.prefix(17).split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard digits.count == 4, digits[3].count == 6, let year = Int(digits[0]), let month = Int(digits[1]),
              let day = Int(digits[2]), let time = Int(digits[3])
        else { return nil }
        return LocalDateTime(year: year, month: month, day: day, hour: time / 10000, minute: time / 100 % 100,
                             second: time % 100)
    }
}
