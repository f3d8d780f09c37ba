import Foundation
import Logging

/// Takes one source from its path to what it files. Runs concurrently with other workers, so
/// it only reads the index and writes photos (which never clash: names carry content hashes);
/// records and custom items are handed back to the driving task, which commits them one source
/// at a time.
struct SourceWorker: Sendable {
    let registry: PluginRegistry
    let layout: LibraryLayout
    let options: ImportOptions
    let index: (any LibraryCatalog)?
    let filer: Filer
    /// Photos' index rows settled and not yet committed (`IndexStep`); committed at the run's end.
    let indexBatch = IndexBatch()
    let context: PipelineContext
    /// Hears each step as it runs (the order tests).
    var observer: StepObserver?
    /// What a dry run would have filed so far, in the whole run.
    let dryRunFilings: DryRunFilings

    /// Tells the observer that `step` ran for `source`.
    func observe(_ step: String, _ source: SourceFile) {
        observer?(step, source.path)
    }

    static let noSubjectReason =
        "no subject: give --subject KIND/ID, or put the file under a pets/<id> or children/<id> folder"

    /// The source's first bytes: `ImportPipeline.sniffLength` of them, more for text whose head
    /// holds fewer than three whole lines, doubling up to `ImportPipeline.longestTextSniff`, so
    /// importers tell text formats apart by lines, not by a cut-off first one.
    static func sniffedHead(of source: SourceFile) throws -> [UInt8] {
        var length = ImportPipeline.sniffLength
        while true {
            let head = try DurableFileSystem.readHead(of: source, count: length)
            // No NUL: text (photos and other binaries have one within their first bytes).
            let text = !head.contains(0) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF])
            guard text, head.count == length, length < ImportPipeline.longestTextSniff,
                  head.lazy.filter({ $0 == 0x0A || $0 == 0x0D }).count < 3
            else { return head }
            length *= 2
        }
    }

    /// Reads the source into a `SourceCollector`, which routes, transforms and files its items
    /// as they come; what it could not file is discarded, whole.
    func read(_ source: SourceFile, with importer: any Importer, head: [UInt8],
              keptCopy kept: SourceKeeper.StagedCopy?) throws -> WorkedSource {
        let collector = SourceCollector(worker: self, source: source, keptSource: kept?.relativePath)
        do {
            try importer.read(SourceInput(source: source, head: head), context: context, into: collector)
            try collector.flush()
            var worked = try collector.finish()
            worked.keptCopy = kept
            return worked
        } catch let notImportable as NotImportable {
            collector.discard()
            kept.map(discard)
            var worked = WorkedSource(outcome: SourceOutcome(source: source.path, status: .skipped,
                                                             error: "\(source.path): \(notImportable.reason)"), source: source)
            worked.outcome.stage = .read
            worked.outcome.errorCode = notImportable.code
            return worked
        } catch let failure as ImportFailure {
            collector.discard()
            kept.map(discard)
            throw failure
        } catch is CancellationError {
            collector.discard()
            kept.map(discard)
            throw ImportFailure(path: source.path, stage: .read,
                                reason: "interrupted before it was filed: nothing of it is in the library; import it again")
        } catch {
            collector.discard()
            kept.map(discard)
            throw ImportFailure(path: source.path, stage: .read, error: error)
        }
    }

    /// A text source's bytes, copied into staging before it is read, so its records can name the
    /// copy the library keeps (the one already kept, when the library has these bytes).
    func keepCopy(of source: SourceFile, for importer: any Importer) throws -> SourceKeeper.StagedCopy? {
        guard importer.keepsSource, !options.dryRun else { return nil }
        return try step(.keep, source) {
            let staged = try SourceKeeper(layout: layout).stage(source)
            guard let already = try index?.keptSource(sha256: staged.digest.hex) else { return staged }
            return SourceKeeper.StagedCopy(stagedPath: staged.stagedPath, digest: staged.digest, size: staged.size,
                                           relativePath: already.path, durable: staged.durable)
        }
    }

    /// A text source whose very bytes another source gave, routed alike, and whose records are
    /// filed: a duplicate, whatever its name or path says (`BabyRecords (1).csv` downloaded
    /// again, `other.csv` copied from it), so nothing is filed twice under another kind. It
    /// stands for those records too (`standInRows`). Its copy in the library is already kept,
    /// which is what `--move` checks. Not for a retry, which reads a kept copy on purpose.
    func sameBytesFiled(_ digest: ContentDigest, staged kept: SourceKeeper.StagedCopy?,
                                from source: SourceFile) throws -> WorkedSource? {
        guard !options.retryingProblems, let index, let already = try index.keptSource(sha256: digest.hex) else { return nil }
        let routeSubject: String?
        switch route(.record(RecordDraft(source: RecordSource(path: source.path, line: 0), subject: nil,
                                         date: RecordDate(year: 2000, month: 1, day: 1)!, body: "", text: "")), from: source) {
        case .subject(let subject): routeSubject = subject.path
        default: routeSubject = nil
        }
        // A file with a history of its own at this path is read as ever: its earlier versions'
        // records are this version's to replace.
        guard try index.lineage(ofSource: source.path, otherThan: already.path).isEmpty else { return nil }
        let standing = try index.sourceStandingFor(keptAs: already.path, routeSubject: routeSubject, otherThan: source.path)
        guard !standing.isEmpty else { return nil }
        kept.map(discard)
        var worked = WorkedSource(outcome: SourceOutcome(
            source: source.path, status: .duplicate, subject: try routeSubject.map { try Subject(parsing: $0) },
            destination: layout.root.appendingPathComponent(already.path).path), source: source)
        worked.safeCopies = [SafeCopy(path: already.path, digest: digest)]
        worked.sourceDigest = digest
        worked.standInRows = standing.map {
            SourceYearFile(sourcePath: source.path, keptPath: already.path, yearFile: $0.yearFile, routeSubject: routeSubject,
                           departedAt: options.history == .departed ? ImportPipeline.now() : nil)
        }
        return worked
    }

    /// A dry run stages nothing, but reads a text source's digest all the same, so it says a
    /// content duplicate is one, as the import would.
    func dryRunDigest(of source: SourceFile, for importer: any Importer) throws -> ContentDigest? {
        guard importer.keepsSource, options.dryRun else { return nil }
        return try step(.keep, source) {
            do { return try source.currentDigest() } catch let error as SourceReadError {
                throw ImportFailure(path: source.path, stage: .keep, reason: "cannot be read: \(error)")
            }
        }
    }

    private func discard(_ copy: SourceKeeper.StagedCopy) {
        try? layout.files.remove(copy.stagedPath)
    }

    /// A source imported before and unchanged since (same path and whole status: size, mtime,
    /// device, inode and change time; same --subject), whose filed file still holds exactly the
    /// bytes the index says: settled without reading a byte of the source. A filed file damaged since has the source read again, and filed anew.
    func unchangedImport(of source: SourceFile) throws -> WorkedSource? {
        guard let earlier = try index?.unchangedSource(source, requestedSubject: options.requestedSubject),
              let filed = try? layout.url(forRelativePath: earlier.filedPath),
              let size = layout.files.fileSize(filed.path)
        else { return nil }
        // A filed file of another size than was filed is damaged: read the source again.
        let filedPhoto = try index?.filedFile(at: earlier.filedPath)
        if let filedPhoto, filedPhoto.size != size { return nil }
        if filedPhoto == nil && !earlier.sha256.isEmpty && earlier.size != size { return nil }
        // Its bytes must be the ones filed, or the source is read again and files them anew: a
        // flipped byte keeps a file's size.
        // (What a profile gave has no digest to check: it is unchanged by its size alone, and never
        // removed on that.)
        var safeCopies: [SafeCopy] = []
        if let digest = expectedDigest(ofFiled: earlier, photo: filedPhoto) {
            guard try filer.holdsSameBytes(filed.path, digest: digest) else { return nil }
            safeCopies.append(SafeCopy(path: earlier.filedPath, digest: digest))
        } else if options.move {
            return nil
        }
        // A text source's year files must be as Dossier last wrote them: one deleted or changed
        // since has the source read again, and its records merged back.
        if filedPhoto == nil, let index {
            for use in try index.yearFiles(ofSource: source.path, kept: earlier.filedPath) {
                guard let summary = try index.recordFile(at: use.yearFile),
                      let digest = ContentDigest(hex: summary.sha256),
                      try filer.holdsSameBytes(try layout.url(forRelativePath: use.yearFile).path, digest: digest)
                else { return nil }
            }
        }
        // So must its original, if one was kept: else the source is read again, and keeps it anew.
        if filedPhoto != nil, let sourceDigest = ContentDigest(hex: earlier.sha256),
           let kept = try index?.originals(sha256: earlier.sha256), !kept.isEmpty {
            guard let whole = try kept.first(where: {
                try filer.holdsSameBytes(try layout.url(forRelativePath: $0.path).path, digest: sourceDigest)
            }) else { return nil }
            safeCopies.append(SafeCopy(path: whole.path, digest: sourceDigest))
        }
        // Its renditions too: one damaged or gone has the source read again, and made anew.
        if filedPhoto != nil, try !filer.renditionsAreWhole(of: earlier.filedPath) { return nil }
        // A status taken too soon after the file's last change (`SourceFile.statusIsRacy`: on a
        // file system of whole seconds, an edit later in that second keeps it) proves nothing:
        // the source is hashed, and settled only if its bytes are those read then. Its status is
        // recorded again as now found, which proves it unchanged next time once it is not racy.
        var hashed: ContentDigest?
        if !earlier.statusProvesUnchanged {
            guard let digest = ContentDigest(hex: earlier.sha256), (try? source.currentDigest()) == digest else { return nil }
            hashed = digest
        }
        let subject = try? Subject(parsing: earlier.subject)
        // The other files the source gave (a source may give several) must be whole too.
        var others: [String] = []
        if filedPhoto != nil, let subject, let sourceDigest = ContentDigest(hex: earlier.sha256) {
            for sibling in try index?.filedFiles(for: subject, sourceDigest: sourceDigest) ?? [] where sibling.path != earlier.filedPath {
                guard let path = try? layout.url(forRelativePath: sibling.path).path,
                      let digest = ContentDigest(hex: sibling.sha256), try filer.holdsSameBytes(path, digest: digest),
                      try filer.renditionsAreWhole(of: sibling.path)
                else { return nil }
                safeCopies.append(SafeCopy(path: sibling.path, digest: digest))
                others.append(path)
            }
        }
        var worked = WorkedSource(outcome: SourceOutcome(source: source.path, status: .duplicate, subject: subject,
                                                         destination: filed.path), source: source)
        worked.outcome.alsoFiled = others
        worked.safeCopies = safeCopies
        if let hashed {
            worked.sourceDigest = hashed
            worked.imported = ImportedSource(source, requestedSubject: earlier.requestedSubject, sha256: earlier.sha256,
                                             subject: earlier.subject, filedPath: earlier.filedPath)
        }
        return worked
    }

    /// What the file an earlier import filed must hash to: a photo's filed bytes as indexed, or
    /// (for a text source, whose kept copy is its very bytes) the source's own digest.
    private func expectedDigest(ofFiled earlier: ImportedSource, photo: FiledFile?) -> ContentDigest? {
        if let photo { return ContentDigest(hex: photo.sha256) }
        return earlier.sha256.isEmpty ? nil : ContentDigest(hex: earlier.sha256)
    }

    /// Files one photo: skipped if its source bytes are already filed for the subject (before
    /// any decoding), else transformed and filed.
    func file(_ photo: Photo) throws -> WorkedSource {
        var worked = try fileWithoutFacts(photo)
        worked.outcome.taken = photo.captureDate.iso8601
        worked.outcome.dateFrom = photo.captureDate.origin.name
        worked.outcome.format = photo.format.fileExtension
        worked.outcome.rotation = photo.rotation
        worked.outcome.motion = photo.isMotionPhoto
        return worked
    }

    private func fileWithoutFacts(_ photo: Photo) throws -> WorkedSource {
        var photo = photo
        let source = photo.source
        guard let subject = photo.subject else { throw ImportFailure(path: source.path, stage: .route, reason: "no subject") }
        // A movie or raw whose still was filed before under another subject (a clip shared into a
        // sibling's or a pet's folder) is a file of its own here: under the still's name it would
        // stand alone, its name carrying bytes it does not hold. (A still in this run is filed
        // with it, whichever comes first.)
        if let still = photo.besideStill, !photo.format.isSidecar, !photo.stillIsInRun,
           try layout.files.entryType(try layout.url(forRelativePath: "\(subject.path)/\(still)").path) == nil {
            photo.besideStill = nil
        }
        var warnings: [String] = []
        // Every file this source's bytes gave (a source may give several) must be intact for it
        // to be a duplicate; else it is filed again (what is still whole is found as it is).
        var known = try index?.filedFiles(for: subject, sourceDigest: photo.sourceDigest) ?? []
        // A sidecar's bytes may be another photo's sidecar's too (the same edit made twice): only
        // the copy beside its own photo makes it a duplicate.
        if photo.format.isSidecar, let still = photo.besideStill {
            let stem = ("\(subject.path)/\(still)" as NSString).deletingPathExtension
            known = known.filter { ($0.path as NSString).deletingPathExtension.hasPrefix(stem) }
        }
        // Taken out of this subject's folder by `dossier remove` or `dossier move`: never filed there again.
        if known.isEmpty, let takenOut = try takenOut(photo, subject: subject, digest: photo.contentDigest) { return takenOut }
        var copies: [SafeCopy] = []
        var renditionsWhole = true
        for file in known {
            guard let filed = try? layout.url(forRelativePath: file.path), let digest = ContentDigest(hex: file.sha256) else { continue }
            // Its bytes, not its size: a flipped byte keeps the size, and the source at hand is
            // what the damaged copy can be filed again from.
            if try filer.holdsSameBytes(filed.path, digest: digest) {
                copies.append(SafeCopy(path: file.path, digest: digest))
                // Its rendition is no copy of the source (never what makes it safe to remove),
                // but one damaged or gone is made again from it: the source is read for that.
                for rendition in try index?.renditions(ofPhoto: file.path) ?? [] {
                    guard let renditionPath = try? layout.url(forRelativePath: rendition.path).path,
                          let renditionDigest = ContentDigest(hex: rendition.sha256),
                          try !filer.holdsSameBytes(renditionPath, digest: renditionDigest)
                    else { continue }
                    renditionsWhole = false
                    warnings.append(try layout.files.entryType(renditionPath) != nil
                        ? "the rendition \(renditionPath) of the filed copy \(filed.path) was damaged (its bytes are not the ones "
                            + "filed); made again from this source"
                        : "the rendition \(renditionPath) of the filed copy \(filed.path) was missing; made again from this source")
                }
            } else if try layout.files.entryType(filed.path) != nil {
                warnings.append("the filed copy \(filed.path) was damaged (its bytes are not the ones filed); "
                    + "filed again from this source")
            } else if try isNotedForRepair(file.path) {
                warnings.append("the filed copy \(filed.path) was missing; filed again from this source (`dossier verify --repair` asked for it)")
            } else {
                // Deleted by hand, perhaps on purpose: a person says whether it comes back.
                return missingFiledCopy(of: source, subject: subject, path: file.path)
            }
        }
        if let first = known.first, copies.count == known.count, renditionsWhole {
            var worked = WorkedSource(outcome: SourceOutcome(source: source.path, status: .duplicate, subject: subject,
                                                             destination: try layout.url(forRelativePath: first.path).path),
                                      source: source,
                                      imported: importedSource(photo, subject: subject, filedPath: first.path))
            worked.outcome.alsoFiled = try known.dropFirst().map { try layout.url(forRelativePath: $0.path).path }
            worked.safeCopies = copies
            // Its original, kept when it was filed, is part of what makes the source safe to
            // remove: checked too, and kept again from the source when it is damaged or gone.
            try checkOriginal(of: photo, filedAt: first.path, into: &worked)
            return worked
        }
        observe("transform", source)
        let transformed = try transform(ItemBatch(items: [.photo(photo)]))
        // A transform may fan one photo out to several (each filed, and each checked before the
        // source is removed); it may not turn it into anything else.
        let uprights = transformed.items.compactMap { item -> Photo? in if case .photo(let upright) = item { upright } else { nil } }
        guard transformed.records.isEmpty, !uprights.isEmpty, uprights.count == transformed.items.count else {
            throw ImportFailure(path: source.path, stage: .transform, reason: "the transforms did not give back photos")
        }
        var worked = try file(uprights[0], of: photo, for: subject, warnings: warnings)
        for upright in uprights.dropFirst() { worked.add(try file(upright, of: photo, for: subject, warnings: [])) }
        return worked
    }

    /// Files one upright photo that `photo` gave.
    private func file(_ upright: Photo, of photo: Photo, for subject: Subject, warnings: [String]) throws -> WorkedSource {
        let source = photo.source
        let warnings = warnings + upright.warnings
        observe("file", source)
        // Turned, its bytes are not its source's: a file taken out that only the index's rebuild
        // knew by its filed bytes is found by these.
        if upright.contentDigest != photo.contentDigest, let takenOut = try takenOut(photo, subject: subject, digest: upright.contentDigest) {
            return takenOut
        }
        let result = try step(.file, source) { try filer.file(upright, for: subject) }
        switch result {
        case .missing(let path):
            return missingFiledCopy(of: source, subject: subject, path: path)
        case .duplicate(let path):
            var worked = WorkedSource(
                outcome: SourceOutcome(source: source.path, status: .duplicate, subject: subject,
                                       destination: try layout.url(forRelativePath: path).path, warnings: warnings),
                source: source, imported: importedSource(photo, subject: subject, filedPath: path))
            worked.safeCopies = [SafeCopy(path: path, digest: upright.contentDigest)]
            // Filed before: its original was kept then if it had to be (checked now); `all` keeps
            // one now if none is.
            if originals == .all, try index?.originals(sha256: photo.sourceDigest.hex).isEmpty != false {
                try keepOriginal(of: photo, filedAt: path, into: &worked)
            } else {
                try checkOriginal(of: photo, filedAt: path, into: &worked)
            }
            return worked
        case .filed(let path, let digest), .adopted(let path, let digest), .refiled(let path, let digest, _):
            let filed = FiledFile(path: path, subject: subject.path, sha256: digest.hex,
                                  sourceSha256: photo.sourceDigest.hex, size: upright.content.size,
                                  capturedAt: upright.captureDate.iso8601,
                                  filedAt: ImportPipeline.now(),
                                  contentIdentifier: upright.contentIdentifier)
            var worked = WorkedSource(
                outcome: SourceOutcome(source: source.path, status: .imported, subject: subject,
                                       destination: try layout.url(forRelativePath: path).path, warnings: warnings),
                source: source, filed: [filed], imported: importedSource(photo, subject: subject, filedPath: path))
            worked.outcome.damaged = upright.damage != nil
            if case .refiled(_, _, let damagedCopies) = result {
                worked.outcome.refiled = true
                for copy in damagedCopies {
                    worked.outcome.warnings.append("the damaged copy that stood at its name is kept at "
                        + (try layout.url(forRelativePath: copy).path))
                }
            }
            if let still = upright.besideStill, !upright.format.isSidecar,
               (path as NSString).deletingPathExtension != "\(subject.path)/\((still as NSString).deletingPathExtension)" {
                // The still's name holds another file of its kind already (its Live Photo's own
                // movie, a raw of the same shot under another case): the pair stays as it is.
                worked.outcome.warnings.append("its photo \(try layout.url(forRelativePath: "\(subject.path)/\(still)").path) has "
                    + "a \(upright.format.folder == "videos" ? "movie" : "file") of its name beside it already: filed under its own name"
                    + (upright.format.hasRendition && upright.rendition == nil ? ", without a rendition" : ""))
            }
            if let rendition = upright.rendition {
                let renditionPath = Filer.renditionPath(of: path, upright.format, rendition.format)
                worked.outcome.rendition = try layout.url(forRelativePath: renditionPath).path
                // Filed, adopted or refiled, the rendition's name holds these bytes now (`Filer`).
                worked.renditions = [FiledRendition(path: renditionPath, photoPath: path, sha256: ContentDigest(of: rendition.bytes).hex,
                                                    size: Int64(rendition.bytes.count), filedAt: filed.filedAt)]
            }
            if !upright.format.isVideo, !upright.format.isAudio, upright.besideStill == nil, !options.dryRun, let index {
                // The still is filed whatever happens here: a movie that cannot be brought stays
                // where it was filed, whole, and the outcome says why.
                do {
                    // A movie settled a moment ago may still wait for its commit: the reunion finds it in the index.
                    if indexBatch.mayHoldMovie(of: upright) { try indexBatch.commit(into: index) }
                    if let movie = try LivePhotoReunion(layout: layout, index: index)
                        .bringMovie(besideStillAt: path, still: upright, subject: subject) {
                        let isRaw = layout.photoFormats.format(forExtension: (movie as NSString).pathExtension)?.joinsItsStill == true
                        worked.outcome.warnings.append("its \(isRaw ? "raw" : "Live Photo movie"), filed before it, now lies beside it: "
                            + (try layout.url(forRelativePath: movie).path))
                    }
                } catch {
                    worked.outcome.warnings.append("its Live Photo movie, filed before it, could not be brought beside it: \(error)")
                }
            }
            worked.safeCopies = [SafeCopy(path: path, digest: digest)]
            if originals.keepsOriginal(filedLossily: upright.filedLossily) {
                try keepOriginal(of: photo, filedAt: path, into: &worked)
            }
            return worked
        }
    }

    // MARK: Taken out, or deleted by hand

    /// A photo whose file `dossier remove` or `dossier move` took out of `subject`'s folder (found
    /// by its source's bytes, or its filed ones): a removed one is skipped, saying so, and its
    /// source stays where it is (the library no longer holds it, so `--move` must not take it);
    /// a moved one is a duplicate of where it went, when its bytes are still filed there. A
    /// sidecar's bytes may be another photo's sidecar's too: only the one beside its own photo counts.
    private func takenOut(_ photo: Photo, subject: Subject, digest: ContentDigest) throws -> WorkedSource? {
        guard let index, let removal = try index.removal(of: subject, sourceDigest: photo.sourceDigest, digest: digest) else { return nil }
        if photo.format.isSidecar {
            guard let still = photo.besideStill,
                  LibraryVerifier.stemCandidates(of: removal.path)
                    .contains(("\(subject.path)/\(still)" as NSString).deletingPathExtension)
            else { return nil }
        }
        let source = photo.source
        let what = photo.format.isVideo ? "video" : photo.format.isAudio ? "sound" : "photo"
        let day = String(removal.at.prefix(10))
        if removal.command == .move, let filedDigest = ContentDigest(hex: removal.sha256) {
            // Where it went first; moved on since, wherever its bytes are filed now.
            let went = try removal.bytesAt.flatMap { try index.filedFile(at: $0) }.map { [$0] } ?? []
            for now in try went + index.filedFiles(sha256: filedDigest) where now.sha256 == removal.sha256 {
                guard let path = try? layout.url(forRelativePath: now.path).path, try filer.holdsSameBytes(path, digest: filedDigest),
                      let there = try? Subject(parsing: now.subject)
                else { continue }
                var worked = WorkedSource(outcome: SourceOutcome(source: source.path, status: .duplicate, subject: there, destination: path),
                                          source: source, imported: importedSource(photo, subject: there, filedPath: now.path))
                worked.outcome.warnings.append("its \(what) was moved from \(subject.path) to \(now.subject) by `dossier move` on \(day): "
                    + "not filed under \(subject.path) again")
                worked.safeCopies = [SafeCopy(path: now.path, digest: filedDigest)]
                return worked
            }
        }
        let kept = removal.bytesAt.map { " (its bytes are kept at \((try? layout.url(forRelativePath: $0).path) ?? $0))" } ?? ""
        let how = removal.command == .move ? "moved out of \(subject.path) by `dossier move` on \(day), and is no longer where it went"
                                           : "taken out of \(subject.path) by `dossier remove` on \(day)\(kept)"
        var worked = WorkedSource(outcome: SourceOutcome(
            source: source.path, status: .skipped, stage: .file, subject: subject,
            error: "\(source.path): its \(what) was \(how); not filed there again"), source: source)
        worked.outcome.errorCode = SourceOutcome.takenOutCode
        return worked
    }

    /// Whether `verify --repair` asked for the filed file at `path` to be filed again (`CopyToMend`).
    private func isNotedForRepair(_ path: String) throws -> Bool {
        try index?.copiesToMend().contains { $0.path == path } ?? false
    }

    /// A source whose filed copy is missing, and that `verify --repair` did not ask to file again:
    /// skipped, and left where it is; a person says whether it comes back, or is forgotten.
    private func missingFiledCopy(of source: SourceFile, subject: Subject, path: String) -> WorkedSource {
        let absolute = (try? layout.url(forRelativePath: path).path) ?? path
        var worked = WorkedSource(outcome: SourceOutcome(
            source: source.path, status: .skipped, stage: .file, subject: subject,
            error: "\(source.path): its filed copy \(absolute) is missing (deleted by hand?), and is not filed again unasked: "
                + "`dossier verify --repair` files it again from here, `dossier remove \(path)` forgets it"), source: source)
        worked.outcome.errorCode = SourceOutcome.filedCopyMissingCode
        return worked
    }

    /// Which photos' sources are kept (the pipeline settles `--originals` and the library's
    /// setting before the worker starts).
    private var originals: OriginalsPolicy { options.originals ?? .lossy }

    /// A duplicate's original: where the index has one for the source's bytes, it must hold
    /// them (a safe copy the source's removal checks); one damaged or gone is kept again from
    /// the source, which is at hand.
    private func checkOriginal(of photo: Photo, filedAt path: String, into worked: inout WorkedSource) throws {
        let kept = try index?.originals(sha256: photo.sourceDigest.hex) ?? []
        guard let first = kept.first else { return }
        for original in kept
        where try filer.holdsSameBytes(try layout.url(forRelativePath: original.path).path, digest: photo.sourceDigest) {
            worked.safeCopies.append(SafeCopy(path: original.path, digest: photo.sourceDigest))
            return
        }
        worked.outcome.warnings.append("its original \(try layout.url(forRelativePath: first.path).path) was damaged or "
            + "missing; kept again from this source")
        try keepOriginal(of: photo, filedAt: path, into: &worked)
    }

    /// Keeps the source's bytes under `originals/`, durably, beside the name its photo was filed
    /// under; the source is removed (`--move`, the daemon) only once they are checked there too.
    private func keepOriginal(of photo: Photo, filedAt path: String, into worked: inout WorkedSource) throws {
        guard !options.dryRun, !photo.format.isSidecar else { return }
        let original = try step(.file, photo.source) {
            try OriginalKeeper(layout: layout, index: index).keep(photo.source, digest: photo.sourceDigest, filedPath: path)
        }
        worked.originals.append(original)
        worked.safeCopies.append(SafeCopy(path: original.path, digest: photo.sourceDigest))
        worked.outcome.original = try layout.url(forRelativePath: original.path).path
    }

    /// Runs every transform, in stage order, over a batch of one source's items. Takes the batch
    /// over (`consuming`), so its arrays are changed in place rather than copied first.
    func transform(_ batch: consuming ItemBatch) throws -> ItemBatch {
        var batch = batch
        for transform in registry.transforms {
            try transform.apply(to: &batch, context: context)
        }
        return batch
    }

    func route(_ item: Item, from source: SourceFile) -> RoutingDecision {
        for router in registry.routers {
            let decision = router.route(item, from: source, context: context.routing)
            if decision != .undecided { return decision }
        }
        return .undecided
    }

    private func importedSource(_ photo: Photo, subject: Subject, filedPath: String) -> ImportedSource {
        ImportedSource(photo.source, requestedSubject: options.requestedSubject?.path ?? "",
                       sha256: photo.sourceDigest.hex, subject: subject.path, filedPath: filedPath)
    }

    /// Runs one stage's work, turning any error into an `ImportFailure` that names the file and the stage.
    func step<T>(_ stage: ImportStage, _ source: SourceFile, _ body: () throws -> T) throws(ImportFailure) -> T {
        do {
            return try body()
        } catch let failure as ImportFailure {
            throw failure
        } catch {
            throw ImportFailure(path: source.path, stage: stage, error: error)
        }
    }
}
