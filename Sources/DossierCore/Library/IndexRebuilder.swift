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

    /// What a rebuild indexed, and what it found.
    public struct Rebuilt: Sendable {
        public var photos: Int
        public var recordFiles: Int
        /// The filed files whose bytes are not the ones their names were made from.
        public var misnamed: [VerificationFinding]
        /// The folders among the filed files that hold another library (relative to the root),
        /// passed over whole: none of their files is this library's.
        public var otherLibraries: [String]
    }

    /// Fills an open index from the folders (the caller holds the lock): how many photos and
    /// year files of records it indexed, the filed files whose bytes are not the ones their
    /// names were made from (damaged before the rebuild: indexed as they are, for `dossier
    /// verify` to name, and for the next import of their source to file again), and the
    /// folders holding another library it passed over.
    public func rebuild(into index: LibraryIndex) throws -> Rebuilt {
        var otherLibraries: [String] = []
        let (files, renditions) = try filedFiles(otherLibraries: &otherLibraries)
        let kept = try keptSources()
        let (records, yearFiles) = try recordFiles(kept: kept)
        let siblings = Dictionary(grouping: files.map(\.path), by: LibraryVerifier.stem(of:))
        let misnamed = files.compactMap { file -> VerificationFinding? in
            LibraryVerifier.digestNamed(by: file.path, for: file.sha256, formats: layout.photoFormats, siblings: siblings).map {
                VerificationFinding(kind: .damaged, path: file.path,
                                    reason: "its bytes hash to \(file.sha256.prefix(16)); its name says \($0)")
            }
        }
        try index.replaceFiledFiles(with: files, renditions: renditions, recordFiles: records, keptSources: kept,
                                    originals: try originals(otherLibraries: &otherLibraries),
                                    sourceYearFiles: yearFiles, damaged: misnamed.map(\.path), removed: try removedItems())
        return Rebuilt(photos: files.count, recordFiles: records.count, misnamed: misnamed, otherLibraries: otherLibraries.sorted())
    }

    /// What `dossier remove` took out, as `removed/<day>/` holds it: each file kept there of a
    /// subject's folder, hashed, with its source's digest where the original kept of it was taken
    /// out with it (`removed/<day>/originals/<its name>.*`). An index lost since keeps no import
    /// from filing them again. (A move keeps no bytes aside: an index lost after one forgets it,
    /// and an import of its source for the subject it left files it there again, a second copy.)
    func removedItems() throws -> [RemovedItem] {
        var found: [RemovedItem] = []
        var otherLibraries: [String] = []
        for day in try layout.files.names(in: layout.root.appendingPathComponent("removed").path).sorted() where !day.hasPrefix(".") {
            let originals = Dictionary(try filesUnder("removed/\(day)/originals", otherLibraries: &otherLibraries).map { path in
                (LibraryVerifier.stem(of: String(path.dropFirst("removed/\(day)/originals/".count))), path)
            }, uniquingKeysWith: { first, _ in first })
            for kind in SubjectKind.allCases {
                for path in try filesUnder("removed/\(day)/\(kind.rawValue)", otherLibraries: &otherLibraries) {
                    let filed = String(path.dropFirst("removed/\(day)/".count))
                    let parts = filed.split(separator: "/")
                    guard parts.count > 3, let subject = try? Subject(parsing: "\(parts[0])/\(parts[1])") else { continue }
                    let digest = try layout.files.digest(ofFile: try layout.url(forRelativePath: path).path).digest
                    let source = try originals[LibraryVerifier.stem(of: filed)].map {
                        try layout.files.digest(ofFile: try layout.url(forRelativePath: $0).path).digest.hex
                    }
                    found.append(RemovedItem(command: .remove, role: .filed, path: filed, subject: subject.path, sha256: digest.hex,
                                             sourceSha256: source, bytesAt: path, at: day, state: .done))
                }
            }
        }
        return found
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

    /// Every file under `originals/`, hashed: the photos' sources kept there. A folder that
    /// holds another library is passed over, and named in `otherLibraries`.
    func originals(otherLibraries: inout [String]) throws -> [KeptOriginal] {
        try filesUnder("originals", otherLibraries: &otherLibraries).map { path in
            let (size, digest) = try layout.files.digest(ofFile: try layout.url(forRelativePath: path).path)
            return KeptOriginal(sha256: digest.hex, path: path, size: size)
        }
    }

    func filedFiles(otherLibraries: inout [String]) throws -> (files: [FiledFile], renditions: [FiledRendition]) {
        let filedAt = ISO8601DateFormatter().string(from: Date())
        var files: [FiledFile] = []
        var renditions: [FiledRendition] = []
        for subject in layout.existingSubjects().sorted() {
            for folder in ["photos", "videos", "audio"] {
                let found = try filedFiles(in: folder, of: subject, filedAt: filedAt, otherLibraries: &otherLibraries)
                files += found.files
                renditions += found.renditions
            }
        }
        return (files, renditions)
    }

    /// Every file under `<kind>/<id>/<folder>/`, hashed: the renditions apart. The folders are
    /// walked without following a link, and one that holds another library (its id, index or
    /// settings: `dossier init` run inside this library's folders) is passed over whole and
    /// named in `otherLibraries`: its `.dossier/` and `config/` files are never this library's.
    private func filedFiles(in folder: String, of subject: Subject, filedAt: String, otherLibraries: inout [String]) throws
        -> (files: [FiledFile], renditions: [FiledRendition])
    {
        var files: [FiledFile] = []
        var renditions: [FiledRendition] = []
        for path in try filesUnder("\(subject.path)/\(folder)", otherLibraries: &otherLibraries) {
            let url = try layout.url(forRelativePath: path)
            // Read a chunk at a time: a video may be gigabytes.
            let (size, digest) = try layout.files.digest(ofFile: url.path)
            if let photo = photo(ofRendition: path, digest: digest) {
                renditions.append(FiledRendition(path: path, photoPath: photo, sha256: digest.hex, size: size, filedAt: filedAt))
                continue
            }
            files.append(FiledFile(path: path, subject: subject.path, sha256: digest.hex,
                                   sourceSha256: nil, size: size,
                                   capturedAt: IndexRebuilder.captureDate(fromName: path)?.iso8601,
                                   filedAt: filedAt))
        }
        return (files, renditions)
    }

    /// The regular files under a folder of the library (relative to the root, in name order),
    /// hidden names passed over, links never followed (a link where a folder belongs leads to nothing of the library's:
    /// `verify` names it); a folder that holds another library is named in `otherLibraries` and
    /// not walked.
    private func filesUnder(_ relative: String, otherLibraries: inout [String]) throws -> [String] {
        let absolute = try layout.url(forRelativePath: relative).path
        if LibraryBoundary.isLibrary(absolute) {
            otherLibraries.append(relative)
            return []
        }
        var found: [String] = []
        for entry in try entriesUnlessLink(absolute).sorted(by: { $0.name < $1.name }) where !entry.name.hasPrefix(".") {
            switch entry.info.st_mode & S_IFMT {
            case S_IFDIR: found += try filesUnder("\(relative)/\(entry.name)", otherLibraries: &otherLibraries)
            case S_IFREG: found.append("\(relative)/\(entry.name)")
            default: continue
            }
        }
        return found
    }

    /// The entries of a folder of the library; none when a link stands where it belongs.
    private func entriesUnlessLink(_ path: String) throws(LibraryError) -> [(name: String, info: stat)] {
        do {
            return try layout.files.entries(in: path)
        } catch .symbolicLink {
            return []
        }
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
