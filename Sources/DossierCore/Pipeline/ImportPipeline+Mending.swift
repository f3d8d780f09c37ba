import Foundation

/// The next import files again what `dossier verify` found damaged or missing and could be
/// mended: verify records each such photo or rendition with its good copy (`CopyToMend`), and
/// every run, `import` or a daemon batch, first files those good copies again for their subjects.
/// A good copy in the library (an original, or a rendition's photo) is read where it is, as
/// `problems retry` reads a kept source; one outside it, where it was imported from, is read as
/// `import --subject` would, and never removed. Filing again puts the good bytes under the damaged
/// file's own name (`Filer`).
extension ImportPipeline {
    struct Mending {
        var passes: [Pass] = []
        var copies: [CopyToMend] = []
    }

    /// A pass per subject of the good copies `verify` recorded; a copy whose good copy is gone is
    /// forgotten, and said.
    func mendingPasses(session: inout LibrarySession) async -> Mending {
        guard let index = session.index else { return Mending() }
        let layout = self.layout
        // A dry run files nothing again (what it would show is what the real run files after the
        // mending, not before): it says how many the real run would mend first.
        guard !options.dryRun else {
            let noted = await BlockingWork.run { (try? index.copiesToMend())?.count { !$0.goodCopy.isEmpty } ?? 0 }
            if noted > 0 { session.notices.append(.wouldMend(path: layout.root.path, count: noted)) }
            return Mending()
        }
        let (mending, gone) = await BlockingWork.run { () -> (Mending, [(CopyToMend, String)]) in
            var mending = Mending()
            var gone: [(CopyToMend, String)] = []
            let subjects = layout.existingSubjects()
            var bySubject: [Subject: [SourceDiscovery.Found]] = [:]
            // One with no good copy (missing, `--repair` asked) waits for its source to be imported.
            for copy in (try? index.copiesToMend()) ?? [] where !copy.goodCopy.isEmpty {
                let goodCopy = copy.goodCopy.hasPrefix("/") ? copy.goodCopy : layout.root.path + "/" + copy.goodCopy
                // Never a subject made again from a note: one renamed or removed since is gone.
                guard let subject = try? Subject(parsing: copy.subject), subjects.contains(subject) else {
                    gone.append((copy, "its subject \(copy.subject) is no longer in the library"))
                    continue
                }
                // A good copy is a regular file, never a link, that still holds the bytes the
                // photo was filed from: `verify` knew it by its path and size only.
                var info = stat()
                guard SourcePath.withFileSystemPath(goodCopy, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG,
                      let expected = ImportPipeline.expectedDigests(of: copy, in: index),
                      expected.goodCopy == nil || ImportPipeline.digest(ofGoodCopy: goodCopy, layout: layout) == expected.goodCopy
                else {
                    gone.append((copy, "its good copy \(goodCopy) is gone or has changed"))
                    continue
                }
                let found: SourceDiscovery.Found
                if goodCopy.hasPrefix(layout.root.path + "/") {
                    found = readInPlace(RetrySource(originalPath: goodCopy, keptPath: String(goodCopy.dropFirst(layout.root.path.count + 1)),
                                                    routeSubject: subject))
                } else {
                    found = .file(SourceFile(path: goodCopy, info: info))
                }
                bySubject[subject, default: []].append(found)
                mending.copies.append(copy)
            }
            mending.passes = bySubject.sorted { $0.key.path < $1.key.path }.map {
                Pass(sources: $0.value, requestedSubject: $0.key, mends: true)
            }
            if !gone.isEmpty { try? index.forgetCopiesToMend(gone.map(\.0.path)) }
            return (mending, gone)
        }
        if !mending.copies.isEmpty { session.notices.append(.mending(path: layout.root.path, count: mending.copies.count)) }
        for (copy, reason) in gone { session.notices.append(.cannotMend(path: copy.path, reason: reason)) }
        return mending
    }

    /// What a noted file's bytes should be by the index, and its good copy's: a photo's source's
    /// (its source or original; unknown after `index rebuild`), a rendition's photo's.
    static func expectedDigests(of copy: CopyToMend, in index: LibraryIndex) -> (filed: String, goodCopy: String?)? {
        if let filed = try? index.filedFile(at: copy.path) { return (filed.sha256, filed.sourceSha256) }
        if let rendition = try? index.rendition(at: copy.path), let photo = try? index.filedFile(at: rendition.photoPath) {
            return (rendition.sha256, photo.sha256)
        }
        return nil
    }

    /// The SHA-256 of a good copy, read without following a link: through the library's own
    /// checks for one under it.
    static func digest(ofGoodCopy path: String, layout: LibraryLayout) -> String? {
        if path.hasPrefix(layout.root.path + "/") { return (try? layout.files.digest(ofFile: path))?.digest.hex }
        let descriptor = SourcePath.withFileSystemPath(path) { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return (try? ScratchFile.hash(descriptor))?.1.hex
    }

    /// Forgets the copies tried: each is tried once. One whose bytes do not read back as the
    /// index's (its filing failed, or its good copy changed since `verify` saw it) is said, and
    /// `verify` notes it again if it still has a good copy. After an interrupt, only the mended
    /// are forgotten: the rest may not have been reached, and the next run tries them.
    func forgetMended(_ copies: [CopyToMend], session: LibrarySession, listeners: [any OutcomeListener]) async {
        guard let index = session.index, !options.dryRun, !copies.isEmpty else { return }
        let (layout, interrupted) = (self.layout, Task.isCancelled)
        let stillDamaged = await BlockingWork.run { () -> [CopyToMend] in
            let stillDamaged = copies.filter { copy in
                guard let expected = ImportPipeline.expectedDigests(of: copy, in: index),
                      let absolute = try? layout.url(forRelativePath: copy.path).path,
                      let actual = try? layout.files.digest(ofFile: absolute)
                else { return true }
                return actual.digest.hex != expected.filed
            }
            let left = Set(stillDamaged.map(\.path))
            try? index.forgetCopiesToMend(interrupted ? copies.map(\.path).filter { !left.contains($0) } : copies.map(\.path))
            return interrupted ? [] : stillDamaged
        }
        for copy in stillDamaged {
            let goodCopy = copy.goodCopy.hasPrefix("/") ? copy.goodCopy : "\(layout.root.path)/\(copy.goodCopy)"
            listeners.forEach { $0.receive(.notice(.notMended(path: copy.path, goodCopy: goodCopy))) }
        }
    }
}
