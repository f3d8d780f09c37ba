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

    /// Names the first good copy of `file` in the finding, and says what to do with it. A copy
    /// is named only once its bytes are hashed and found to be the ones filed from (`--quick` too:
    /// a source edited at the same size and time is no good copy, and `--repair` would file
    /// nothing from it). A missing file (deleted by hand, perhaps on purpose) is filed again only
    /// when a person says so: the finding names `dossier remove` beside `--repair`.
    func add(to finding: inout VerificationFinding, for file: FiledFile) {
        guard finding.goodCopy == nil else { return }
        let missing = finding.kind == .missing
        let forget = "`dossier remove \(file.path)` forgets it"
        var noCopy: [String] = []
        if let original = file.sourceSha256.flatMap({ originals[$0] }),
           let path = try? layout.url(forRelativePath: original.path).path {
            if layout.files.fileSize(path) == original.size,
               (try? layout.files.digest(ofFile: path))?.digest.hex == original.sha256 {
                finding.goodCopy = path
                finding.subject = file.subject
                finding.reason += "; a good copy of its source is kept at \(original.path): `dossier verify --repair` files it anew"
                    + (missing ? ", or \(forget)" : "")
                return
            }
            noCopy.append("its original \(original.path) is damaged too, and no good copy")
        }
        let (source, changed) = sourceStillAtHand(for: file)
        if let source {
            finding.goodCopy = source.path
            finding.subject = file.subject
            finding.reason += missing
                ? "; its source is still at \(SourcePath.displayed(source.path)): `dossier verify --repair` files it again from there, or \(forget)"
                : "; its source is still at \(SourcePath.displayed(source.path)): import it again, or `dossier verify --repair`, to file it anew"
            return
        }
        if let changed {
            noCopy.append("its source at \(SourcePath.displayed(changed.path)) has changed since it was imported (its bytes are not "
                + "the ones filed from it), and is no good copy")
        }
        if !noCopy.isEmpty { finding.reason += "; " + noCopy.joined(separator: "; ") }
        if missing {
            // Its subject, for `--repair` to note: the next import of its source files it again.
            finding.subject = file.subject
            finding.reason += "; \(noCopy.isEmpty ? "no good copy of it is at hand" : "so none is at hand"): \(forget), or "
                + "`dossier verify --repair` has the next import of its source file it again"
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
    /// their bytes, and a filed file is no good copy of itself. The first source still at its
    /// path whose bytes hash to the ones it was imported with; else the first there that changed.
    private func sourceStillAtHand(for file: FiledFile) -> (good: ImportedSource?, changed: ImportedSource?) {
        let candidates = sourcesByFiledPath[file.path, default: []]
            + (file.sourceSha256.map { sourcesByDigest[$0, default: []] } ?? []).filter { $0.subject == file.subject }
        let library = layout.root.path + "/"
        var changed: ImportedSource?
        for source in candidates where !source.path.hasPrefix(library) {
            guard let info = SourcePath.status(source.path, followingLinks: false), info.st_mode & S_IFMT == S_IFREG else { continue }
            if Int64(info.st_size) == source.size, ImportPipeline.digest(ofGoodCopy: source.path, layout: layout) == source.sha256 {
                return (source, nil)
            }
            if changed == nil { changed = source }
        }
        return (nil, changed)
    }
}
