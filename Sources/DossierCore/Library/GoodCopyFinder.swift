import Foundation

/// Where a damaged or missing filed file can be filed again from: its source's bytes kept under
/// `originals/`, or the sources it was imported from that are still where they were, as large
/// as they were then (`dossier verify` says so; the next import of one files it again).
struct GoodCopyFinder: Sendable {
    private let sourcesByFiledPath: [String: [ImportedSource]]
    private let sourcesByDigest: [String: [ImportedSource]]
    private let originals: [String: KeptOriginal]
    let layout: LibraryLayout

    init(contents: LibraryContents, layout: LibraryLayout) {
        let present = contents.sources.filter { $0.departedAt == nil }
        sourcesByFiledPath = Dictionary(grouping: present, by: \.filedPath)
        sourcesByDigest = Dictionary(grouping: present, by: \.sha256)
        originals = Dictionary(contents.originals.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first })
        self.layout = layout
    }

    /// Names the first good copy of `file` in the finding, and says what to do with it.
    func add(to finding: inout VerificationFinding, for file: FiledFile) {
        guard finding.goodCopy == nil else { return }
        if let original = file.sourceSha256.flatMap({ originals[$0] }),
           let path = try? layout.url(forRelativePath: original.path).path,
           layout.files.fileSize(path) == original.size {
            finding.goodCopy = path
            finding.subject = file.subject
            finding.reason += "; a good copy of its source is kept at \(original.path): `dossier verify --repair` files it anew"
        } else if let source = sourceStillAtHand(for: file) {
            finding.goodCopy = source.path
            finding.subject = file.subject
            finding.reason += "; its source is still at \(SourcePath.displayed(source.path)): import it again, or "
                + "`dossier verify --repair`, to file it anew"
        }
    }

    /// The findings whose good copy was itself found damaged or missing in the same check (an
    /// original written over) name it no more: it is no good copy, and the reason says so.
    static func withoutDamagedGoodCopies(_ findings: [VerificationFinding], root: String) -> [VerificationFinding] {
        let bad = Set(findings.filter { [.damaged, .missing].contains($0.kind) }.map { root + "/" + $0.path })
        return findings.map { finding in
            guard let copy = finding.goodCopy, bad.contains(copy),
                  let added = finding.reason.range(of: "; a good copy of its source is kept at ")
            else { return finding }
            var cleared = finding
            cleared.reason = String(finding.reason[..<added.lowerBound])
                + "; its original \(copy.dropFirst(root.count + 1)) is damaged too, and no good copy"
            cleared.goodCopy = nil
            return cleared
        }
    }

    /// A source read in place inside the library (an original, or a filed photo its rendition
    /// was made again from, by `--repair`) is none: the originals are offered above, checked by
    /// their bytes, and a filed file is no good copy of itself.
    private func sourceStillAtHand(for file: FiledFile) -> ImportedSource? {
        let candidates = sourcesByFiledPath[file.path, default: []]
            + (file.sourceSha256.map { sourcesByDigest[$0, default: []] } ?? []).filter { $0.subject == file.subject }
        let library = layout.root.path + "/"
        return candidates.filter { !$0.path.hasPrefix(library) }.first { source in
            SourcePath.status(source.path, followingLinks: false).map { $0.st_mode & S_IFMT == S_IFREG && Int64($0.st_size) == source.size } ?? false
        }
    }
}
