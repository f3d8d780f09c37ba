import Foundation
import Synchronization

/// `dossier verify`: every file the library holds checked against what the index says was put
/// there, and every file the index does not know of found.
///
/// What is checked:
/// - each filed photo, video, sidecar and audio file: there, a regular file, its bytes hashing
///   to the digest the index holds, and (a name carries the digest it was filed under) to the
///   one its name carries, unless it stands beside another file under that file's name;
/// - each rendition beside a photo: its bytes hashing to the digest the index holds (a file with
///   a rendition's name that the index does not know is unindexed, like any other);
/// - each year file of records: its bytes as Dossier last wrote them, and when not, whether
///   every line is still a whole record;
/// - each subject's profile: a JSON object;
/// - each kept source under `sources/`, each original under `originals/`, and each quarantined
///   source: the bytes it was kept with;
/// - the subject folders, `sources/`, `originals/` and the year files, for files the index does
///   not know.
///
/// `quick` compares sizes and modification times instead of hashing the photos, videos, kept
/// and quarantined sources; year files and profiles are read either way (they are small, and
/// reading them is the only way to tell one is cut short).
///
/// It reads only, and takes no lock: a daemon may file while it runs. The index is read as one
/// moment; what looks missing or unindexed is looked at again against the index as it stands at
/// the end, so a file filed or moved meanwhile is not reported.
public struct LibraryVerifier: Sendable {
    public enum Depth: Sendable {
        case full
        case quick
    }

    /// How far a check has gone, for a progress bar.
    public struct Progress: Sendable {
        public var files: Int
        public var totalFiles: Int
        public var bytes: Int64
        public var totalBytes: Int64
    }

    public let layout: LibraryLayout
    /// Why a profile's bytes are not its subject's profile, nil when they are. Profiles are the
    /// records plugin's; without it, a profile must be a JSON object.
    public let profileProblem: @Sendable ([UInt8], Subject) -> String?

    public init(layout: LibraryLayout, profileProblem: (@Sendable ([UInt8], Subject) -> String?)? = nil) {
        self.layout = layout
        self.profileProblem = profileProblem ?? { bytes, _ in
            (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] ? nil : "not a JSON object"
        }
    }

    /// A filed file's mtime may trail its `filed_at` stamp (stamped after the link) or lead it
    /// by the clock's granularity; later than this after it, it was written to since.
    static let modificationSlack: Double = 2

    /// `whileWaiting`: told who holds the library when the settling at the end waits for an
    /// import (or the daemon's batch) to finish.
    public func verify(_ catalog: any LibraryCatalog, depth: Depth,
                       whileWaiting: (String) -> Void = { _ in },
                       progress: @escaping @Sendable (Progress) -> Void = { _ in }) throws -> VerificationResult
    {
        let contents = try catalog.contents()
        let quarantined = try Quarantine(layout: layout).entries()
        let checks = plannedChecks(contents, quarantined: quarantined)
        let hashesBytes = checks.map { depth == .full || !$0.isStatOnlyWhenQuick ? $0.expectedSize ?? 0 : 0 }
        let totals = Progress(files: 0, totalFiles: checks.count, bytes: 0, totalBytes: hashesBytes.reduce(0, +))
        let done = Mutex(totals)
        let results = SliceResults<CheckOutcome>(count: checks.count)
        let goodCopies = GoodCopyFinder(contents: contents, layout: layout)
        let siblings = Dictionary(grouping: contents.filed.map(\.path), by: LibraryVerifier.stem(of:))
        let photos = Dictionary(contents.filed.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        BlockingWork.concurrentlyForEach(checks.count) { slot in
            let outcome = run(checks[slot], depth: depth, siblings: siblings, goodCopies: goodCopies, photos: photos)
            results.set(slot, .success(outcome))
            let now = done.withLock { state -> Progress in
                state.files += 1
                state.bytes += outcome.bytes
                return state
            }
            progress(now)
        }
        var result = VerificationResult()
        result.checkedFiles = checks.count
        for case .success(let outcome) in results.all {
            result.checkedBytes += outcome.bytes
            result.findings += outcome.findings
        }
        result.findings += try unindexedFiles(contents)
        // What looks missing or unindexed may be an import's work under way, its rows not yet
        // committed: looked at again against the index with the library's lock held, when no
        // writer is in the middle of a batch. A library this user cannot lock (read-only to
        // them) is looked at as it is.
        let lock = try? LibraryLock.acquire(layout, wait: true, waiting: whileWaiting)
        defer { lock?.release() }
        result = try settled(result, against: try catalog.contents())
        result.findings = GoodCopyFinder.withoutDamagedGoodCopies(result.findings, root: layout.root.path)
        result.findings.sort { ($0.path, $0.kind.rawValue) < ($1.path, $1.kind.rawValue) }
        return result
    }

    // MARK: What is checked

    /// One file to check, and what it should be.
    private enum Check: Sendable {
        case filed(FiledFile)
        case rendition(FiledRendition)
        case yearFile(RecordFileSummary)
        case kept(KeptSource)
        case original(KeptOriginal)
        case quarantined(QuarantineEntry, path: String)
        case profile(path: String)

        var path: String {
            switch self {
            case .filed(let file): file.path
            case .rendition(let rendition): rendition.path
            case .yearFile(let summary): summary.path
            case .kept(let kept): kept.path
            case .original(let original): original.path
            case .quarantined(_, let path): path
            case .profile(let path): path
            }
        }

        var expectedSize: Int64? {
            switch self {
            case .filed(let file): file.size
            case .rendition(let rendition): rendition.size
            case .kept(let kept): kept.size
            case .original(let original): original.size
            case .quarantined(let entry, _): entry.size
            case .yearFile, .profile: nil
            }
        }

        /// Whether `--quick` looks only at its size and time.
        var isStatOnlyWhenQuick: Bool {
            switch self {
            case .filed, .rendition, .kept, .original, .quarantined: true
            case .yearFile, .profile: false
            }
        }
    }

    private struct CheckOutcome: Sendable {
        var findings: [VerificationFinding] = []
        var bytes: Int64 = 0
    }

    private func plannedChecks(_ contents: LibraryContents, quarantined: [QuarantineEntry]) -> [Check] {
        var checks: [Check] = contents.filed.map { .filed($0) }
        checks += contents.renditions.map { .rendition($0) }
        checks += contents.recordFiles.map { .yearFile($0) }
        checks += layout.existingSubjects().sorted().compactMap { subject in
            let path = layout.profilePath(for: subject)
            guard let url = try? layout.url(forRelativePath: path), (try? layout.files.entryType(url.path)) != nil else { return nil }
            return .profile(path: path)
        }
        checks += contents.keptSources.map { .kept($0) }
        checks += contents.originals.map { .original($0) }
        checks += quarantined.map { .quarantined($0, path: "quarantine/\($0.id)") }
        return checks
    }

    private func run(_ check: Check, depth: Depth, siblings: [String: [String]], goodCopies: GoodCopyFinder,
                     photos: [String: FiledFile]) -> CheckOutcome {
        let path = check.path
        let absolute: String
        do {
            absolute = try layout.url(forRelativePath: path).path
        } catch {
            return CheckOutcome(findings: [VerificationFinding(kind: .damaged, path: path, reason: "\(error)")])
        }
        let entry: LibraryFileSystem.EntryType?
        do {
            entry = try layout.files.entryType(absolute)
        } catch {
            return CheckOutcome(findings: [VerificationFinding(kind: .unreadable, path: path, reason: "\(error)")])
        }
        switch entry {
        case nil:
            var finding = VerificationFinding(kind: .missing, path: path, reason: "the index says it is here; nothing is")
            if case .filed(let file) = check { goodCopies.add(to: &finding, for: file) }
            if case .rendition(let rendition) = check { addPhoto(to: &finding, of: rendition, photos: photos) }
            if case .profile = check { return CheckOutcome() }
            return CheckOutcome(findings: [finding])
        case .file?:
            break
        case let other?:
            var finding = VerificationFinding(kind: .damaged, path: path,
                                              reason: other == .symbolicLink ? "a link stands at its name, not the file filed there"
                                                                             : "something other than a file stands at its name")
            if case .filed(let file) = check { goodCopies.add(to: &finding, for: file) }
            if case .rendition(let rendition) = check { addPhoto(to: &finding, of: rendition, photos: photos) }
            if case .profile = check {
                // A link is kept aside like a damaged file; a folder holds files of its own, which
                // a person moves away.
                if other == .folder {
                    finding.reason = "a folder stands where the profile belongs: move it away, then `dossier verify --repair` starts it again"
                } else {
                    finding.reason += "; `dossier verify --repair` keeps it under damaged/ and starts the profile again"
                    finding.subject = (path as NSString).deletingLastPathComponent
                }
            }
            return CheckOutcome(findings: [finding])
        }
        switch check {
        case .filed(let file):
            var outcome = checkBytes(at: absolute, path: path, digest: file.sha256, size: file.size,
                                     filedAt: file.filedAt, depth: depth)
            if outcome.findings.isEmpty, depth == .full, var wrongName = nameFinding(for: file, siblings: siblings) {
                // A movie under a still's name is no damage a good copy mends: its bytes are its own.
                if !LibraryVerifier.isMovieBesideNothing(file.path, formats: layout.photoFormats) {
                    goodCopies.add(to: &wrongName, for: file)
                }
                outcome.findings.append(wrongName)
                return outcome
            }
            for index in outcome.findings.indices { goodCopies.add(to: &outcome.findings[index], for: file) }
            return outcome
        case .rendition(let rendition):
            var outcome = checkBytes(at: absolute, path: path, digest: rendition.sha256, size: rendition.size,
                                     filedAt: rendition.filedAt, depth: depth)
            for index in outcome.findings.indices { addPhoto(to: &outcome.findings[index], of: rendition, photos: photos) }
            return outcome
        case .kept(let kept):
            return checkBytes(at: absolute, path: path, digest: kept.sha256, size: kept.size, filedAt: nil, depth: depth)
        case .original(let original):
            return checkBytes(at: absolute, path: path, digest: original.sha256, size: original.size, filedAt: nil, depth: depth)
        case .quarantined(let entry, _):
            return checkBytes(at: absolute, path: path, digest: entry.sha256, size: entry.size, filedAt: nil, depth: depth)
        case .yearFile(let summary):
            return checkYearFile(at: absolute, path: path, summary: summary)
        case .profile:
            return checkProfile(at: absolute, path: path)
        }
    }

    /// A file's bytes against the digest and size it was filed or kept with.
    private func checkBytes(at absolute: String, path: String, digest expected: String, size: Int64, filedAt: String?,
                            depth: Depth) -> CheckOutcome {
        switch depth {
        case .quick:
            guard let (actualSize, modified) = layout.files.sizeAndModificationTime(absolute) else {
                return CheckOutcome(findings: [VerificationFinding(kind: .unreadable, path: path, reason: "cannot be looked at")])
            }
            if actualSize != size {
                return CheckOutcome(findings: [VerificationFinding(
                    kind: .damaged, path: path, reason: "it holds \(actualSize) bytes; \(size) were put there")])
            }
            if let filedAt, let stamp = ISO8601DateFormatter().date(from: filedAt),
               modified > stamp.timeIntervalSince1970 + LibraryVerifier.modificationSlack {
                let when = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: modified.rounded(.down)))
                return CheckOutcome(findings: [VerificationFinding(
                    kind: .damaged, path: path,
                    reason: "it was written to at \(when), after it was filed at \(filedAt); check its bytes with `dossier verify`")])
            }
            return CheckOutcome()
        case .full:
            let actual: (size: Int64, digest: ContentDigest)
            do {
                actual = try layout.files.digest(ofFile: absolute)
            } catch {
                return CheckOutcome(findings: [VerificationFinding(kind: .unreadable, path: path, reason: "\(error)")])
            }
            guard actual.digest.hex != expected else { return CheckOutcome(bytes: actual.size) }
            let sizes = actual.size == size ? "" : " (\(actual.size) bytes, where \(size) were put there)"
            return CheckOutcome(findings: [VerificationFinding(
                kind: .damaged, path: path,
                reason: "its bytes hash to \(actual.digest.hex.prefix(16)); \(expected.prefix(16)) were put there\(sizes)")],
                bytes: actual.size)
        }
    }

    /// Says of a damaged or missing rendition which photo it was made from, and names the photo
    /// as the good copy it is made again from (`--repair`), when the photo holds the bytes it was
    /// filed with (hashed to tell, even with `--quick`: a rendition made from damaged bytes would
    /// be damaged too); a photo damaged too is filed again first, and its rendition made with it.
    private func addPhoto(to finding: inout VerificationFinding, of rendition: FiledRendition, photos: [String: FiledFile]) {
        guard let photo = photos[rendition.photoPath] else {
            finding.reason += "; a rendition of \(rendition.photoPath), which the index no longer holds"
            return
        }
        let whole = (try? layout.url(forRelativePath: photo.path)).flatMap { url in
            ContentDigest(hex: photo.sha256).map { digest in
                layout.files.isFile(url.path) && (try? layout.files.digest(ofFile: url.path).digest) == digest
            }
        } ?? false
        guard whole, let url = try? layout.url(forRelativePath: photo.path) else {
            finding.reason += "; a rendition of \(photo.path), which is not whole either: filed again, the photo has it made again"
            return
        }
        finding.goodCopy = url.path
        finding.subject = photo.subject
        finding.reason += "; a rendition of \(photo.path): `dossier verify --repair`, or the next import of its source, "
            + "makes it again from the photo"
    }

    /// A filed file whose bytes are the index's but not the ones its name was made from: the
    /// index was rebuilt from it after it was damaged.
    private func nameFinding(for file: FiledFile, siblings: [String: [String]]) -> VerificationFinding? {
        guard let named = LibraryVerifier.digestNamed(by: file.path, for: file.sha256, formats: layout.photoFormats,
                                                      siblings: siblings)
        else { return nil }
        if LibraryVerifier.isMovieBesideNothing(file.path, formats: layout.photoFormats) {
            return VerificationFinding(kind: .damaged, path: file.path, reason: "its bytes hash to \(file.sha256.prefix(16)); "
                + "its name says \(named), a still's, and no still is beside it (a Live Photo's movie filed under a still "
                + "of another subject): `dossier move \(file.path) --subject \(file.subject)` files it under a name of its own")
        }
        return VerificationFinding(kind: .damaged, path: file.path,
                                   reason: "its bytes hash to \(file.sha256.prefix(16)); its name says \(named)")
    }

    /// Whether a misnamed file is a movie under `photos/`: there only beside a still, whose name
    /// it carries (a movie alone is filed under `videos/`, by its own name).
    static func isMovieBesideNothing(_ path: String, formats: PhotoFormats) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count > 3 && parts[2] == "photos" && formats.format(forExtension: (path as NSString).pathExtension)?.isVideo == true
    }

    /// The digest prefix a filed file's name carries, when its bytes (hashing to `sha256`) are
    /// not the ones it was made from; nil when they are, or the name carries none. A file filed
    /// beside another under that one's name (a movie, a raw, a sidecar: `siblings`, every filed
    /// path by stem, holds the other) carries the other's digest, and is passed over.
    static func digestNamed(by path: String, for sha256: String, formats: PhotoFormats,
                            siblings: [String: [String]]) -> String? {
        let parts = ((path as NSString).lastPathComponent as NSString).deletingPathExtension.split(separator: "_")
        guard parts.count == 3, let digest = ContentDigest(hex: sha256), !LibraryLayout.nameCarries(digest, path: path)
        else { return nil }
        let format = formats.format(forExtension: (path as NSString).pathExtension)
        let standsBeside = format.map { $0.isVideo || $0.isSidecar || $0.joinsItsStill } ?? false
        if standsBeside, stemCandidates(of: path).contains(where: { siblings[$0, default: []].contains { $0 != path } }) {
            return nil
        }
        return parts[2].split(separator: "-").first.map(String.init) ?? ""
    }

    private func checkYearFile(at absolute: String, path: String, summary: RecordFileSummary) -> CheckOutcome {
        let bytes: [UInt8]
        do {
            bytes = try layout.files.readFile(absolute)
        } catch {
            return CheckOutcome(findings: [VerificationFinding(kind: .unreadable, path: path, reason: "\(error)")])
        }
        let size = Int64(bytes.count)
        guard ContentDigest(of: bytes).hex != summary.sha256 else { return CheckOutcome(bytes: size) }
        if let unreadable = LibraryVerifier.unreadableLine(in: bytes) {
            return CheckOutcome(findings: [VerificationFinding(kind: .unreadable, path: path, reason: unreadable)], bytes: size)
        }
        return CheckOutcome(findings: [VerificationFinding(
            kind: .damaged, path: path,
            reason: "its bytes are not the ones Dossier last wrote (\(summary.count) records), though every line is a record")],
            bytes: size)
    }

    private func checkProfile(at absolute: String, path: String) -> CheckOutcome {
        do {
            let bytes = try layout.files.readFile(absolute)
            let subject = (path as NSString).deletingLastPathComponent
            if let owner = try? Subject(parsing: subject), let problem = profileProblem(bytes, owner) {
                return CheckOutcome(findings: [VerificationFinding(
                    kind: .unreadable, path: path,
                    reason: "\(problem); `dossier verify --repair` keeps it under damaged/ and starts it again", subject: subject)],
                                    bytes: Int64(bytes.count))
            }
            return CheckOutcome(bytes: Int64(bytes.count))
        } catch {
            return CheckOutcome(findings: [VerificationFinding(kind: .unreadable, path: path, reason: "\(error)")])
        }
    }

    /// The first line of a year file that is not a whole record: cut short (the file ends without
    /// an end of line) or not a JSON object.
    static func unreadableLine(in bytes: [UInt8]) -> String? {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (offset, line) in lines.enumerated() where !line.isEmpty {
            let number = offset + 1
            if offset == lines.count - 1 { return "line \(number) is cut short: the file ends inside it" }
            guard (try? JSONSerialization.jsonObject(with: Data(line))) is [String: Any] else {
                return "line \(number) is not a record"
            }
        }
        return nil
    }

    // MARK: What the index does not know

    /// Every file in a subject's `photos/`, `videos/`, `audio/` and `records/`, and in `sources/`,
    /// that the index does not list. A file with a rendition's name beside a photo is one like
    /// any other: only its row says Dossier made it.
    private func unindexedFiles(_ contents: LibraryContents) throws -> [VerificationFinding] {
        var findings: [VerificationFinding] = []
        let filed = Set(contents.filed.map(\.path)).union(contents.renditions.map(\.path))
        let photosWithRendition = Dictionary(contents.filed.compactMap { file -> (String, String)? in
            let format = layout.photoFormats.format(forExtension: (file.path as NSString).pathExtension)
            return format?.hasRendition == true ? (LibraryVerifier.stem(of: file.path), file.path) : nil
        }, uniquingKeysWith: { first, _ in first })
        for subject in layout.existingSubjects().sorted() {
            // Beside its folders and its profile, a subject's folder holds nothing Dossier filed
            // (what another library made there is said once, as that library).
            let own: Set<String> = ["photos", "videos", "audio", "records", "profile.json"]
            let holdsLibrary = LibraryBoundary.isLibrary(layout.folder(for: subject).path)
            if holdsLibrary { findings.append(LibraryVerifier.otherLibrary(at: subject.path)) }
            for name in try layout.files.names(in: layout.folder(for: subject).path).sorted() where !own.contains(name) && !holdsLibrary {
                findings.append(VerificationFinding(kind: .unindexed, path: "\(subject.path)/\(name)",
                                                    reason: "Dossier files nothing here; the index does not know it"))
            }
            for folder in ["photos", "videos", "audio"] {
                for path in try filesUnder("\(subject.path)/\(folder)", findings: &findings) where !filed.contains(path) {
                    if let photo = photo(ofRenditionNamed: path, photosWithRendition: photosWithRendition) {
                        findings.append(VerificationFinding(
                            kind: .unindexed, path: path,
                            reason: "the index does not know it: it has the name of a rendition of \(photo), but Dossier did not file it"))
                    } else {
                        findings.append(VerificationFinding(kind: .unindexed, path: path, reason: "the index does not know it"))
                    }
                }
            }
            let recordFiles = Set(contents.recordFiles.map(\.path))
            for path in try filesUnder("\(subject.path)/records", findings: &findings) where !recordFiles.contains(path) {
                findings.append(VerificationFinding(kind: .unindexed, path: path, reason: "the index does not know it"))
            }
        }
        let kept = Set(contents.keptSources.map(\.path)).union(contents.originals.map(\.path))
        for path in try filesUnder("sources", findings: &findings) + filesUnder("originals", findings: &findings)
        where !kept.contains(path) {
            findings.append(VerificationFinding(kind: .unindexed, path: path, reason: "the index does not know it"))
        }
        return findings
    }

    /// The filed photo (of a format that has renditions) beside which a still has a rendition's
    /// name, its own; nil when there is none. The name alone: what it says, not what it is.
    private func photo(ofRenditionNamed path: String, photosWithRendition: [String: String]) -> String? {
        guard layout.photoFormats.format(forExtension: (path as NSString).pathExtension)?.isRenditionFormat == true
        else { return nil }
        return photosWithRendition[LibraryVerifier.stem(of: path)]
    }

    /// A folder among the library's files that holds another library (`dossier init` run inside
    /// this one): named once, and not walked, so its index, lock and settings are never called
    /// this library's damaged or unindexed files.
    static func otherLibrary(at path: String) -> VerificationFinding {
        VerificationFinding(kind: .unindexed, path: path,
                            reason: "it holds another Dossier library, passed over (none of its files is this library's): "
                                + "move it out of this library's folders")
    }

    /// The files under a folder of the library (relative paths, in name order), links and
    /// hidden files included, links never followed: a link where a folder belongs is a finding of
    /// its own (nothing behind it is the library's), and the walk goes on; so is a folder that
    /// holds another library, passed over.
    private func filesUnder(_ relative: String, findings: inout [VerificationFinding]) throws -> [String] {
        let absolute = try layout.url(forRelativePath: relative).path
        let names: [String]
        do {
            names = try layout.files.names(in: absolute)
        } catch .symbolicLink {
            findings.append(VerificationFinding(kind: .damaged, path: relative,
                                                reason: "a link stands where a folder of the library belongs; nothing behind it was checked"))
            return []
        }
        var found: [String] = []
        for name in names.sorted() {
            switch try layout.files.entryType("\(absolute)/\(name)") {
            case .folder? where LibraryBoundary.isLibrary("\(absolute)/\(name)"):
                findings.append(LibraryVerifier.otherLibrary(at: "\(relative)/\(name)"))
            case .folder?: found += try filesUnder("\(relative)/\(name)", findings: &findings)
            case nil: continue
            default: found.append("\(relative)/\(name)")
            }
        }
        return found
    }

    // MARK: Settling what a running daemon may have changed

    /// Drops what the index as it stands now explains: a file reported missing whose row has gone
    /// or moved (a movie brought beside its still), or that is there now; one reported unindexed
    /// that is now indexed, or gone.
    private func settled(_ result: VerificationResult, against now: LibraryContents) throws -> VerificationResult {
        let filed = Set(now.filed.map(\.path)).union(now.renditions.map(\.path))
        let known = filed.union(now.recordFiles.map(\.path)).union(now.keptSources.map(\.path)).union(now.originals.map(\.path))
        let quarantined = Set(try Quarantine(layout: layout).entries().map { "quarantine/\($0.id)" })
        var settled = result
        settled.findings = result.findings.filter { finding in
            let present = (try? layout.url(forRelativePath: finding.path)).map { (try? layout.files.entryType($0.path)) != nil }
            switch finding.kind {
            case .missing: return (known.contains(finding.path) || quarantined.contains(finding.path)) && present != true
            case .unindexed: return !known.contains(finding.path) && present != false
            case .damaged, .unreadable: return true
            }
        }
        return settled
    }

    // MARK: Names

    /// A path without its extension: what a file filed beside another shares with it.
    static func stem(of path: String) -> String {
        (path as NSString).deletingPathExtension
    }

    /// The stems a file beside another may share with it: its own, and its own without a
    /// collision suffix (`..._1a2b3c4d-2.mov` beside `..._1a2b3c4d.jpg`).
    static func stemCandidates(of path: String) -> [String] {
        let stem = stem(of: path)
        guard let dash = stem.lastIndex(of: "-"), stem[stem.index(after: dash)...].allSatisfy(\.isNumber),
              stem.index(after: dash) < stem.endIndex
        else { return [stem] }
        return [stem, String(stem[..<dash])]
    }
}
