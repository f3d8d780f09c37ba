import Foundation

/// Two sources of the same bytes worked on at once (`--jobs`) each found them not yet filed, and
/// each filed them: under one name (the second found the first's file there, the same bytes),
/// or under the names their own dates gave. The second to settle is a duplicate of the first;
/// a copy of its own is taken back, once the first's is checked to hold the same bytes.
/// Settling goes one source at a time, so the first's row is in the index by then.
struct SameBytesFiledAtOnceStep: ImportStep {
    let name = "same-bytes-filed-at-once"
    let phase = ImportStepPhase.settling
    let stage = ImportStage.file

    func run(_ source: inout SourceInProgress, in run: ImportRun) throws -> ImportStepResult {
        if run.options.dryRun { return wouldBeDuplicate(&source, in: run) }
        // A photo filed alone; a sidecar stands by its place beside its photo, not by its bytes
        // (the same edit made to two photos is each one's own).
        guard var worked = source.worked, worked.outcome.status == .imported, !worked.outcome.refiled,
              let index = run.index,
              worked.filed.count == 1, worked.outcome.alsoFiled.isEmpty, let filed = worked.filed.first,
              run.layout.photoFormats.format(forExtension: (filed.path as NSString).pathExtension)?.isSidecar != true,
              let subject = worked.outcome.subject, let digest = ContentDigest(hex: filed.sha256),
              let earlier = try run.indexBatch.filedFile(for: subject, digest: digest) ?? index.filedFile(for: subject, digest: digest),
              try run.worker.filer.holdsSameBytes(try run.layout.url(forRelativePath: earlier.path).path, digest: digest)
        else { return .next }
        if earlier.path != filed.path {
            if let rendition = worked.outcome.rendition { try run.layout.files.remove(rendition) }
            try run.layout.files.remove(try run.layout.url(forRelativePath: filed.path).path)
        }
        let destination = try run.layout.url(forRelativePath: earlier.path).path
        worked.outcome.status = .duplicate
        worked.outcome.destination = destination
        worked.outcome.rendition = nil
        worked.filed = []
        worked.renditions = []
        worked.imported?.filedPath = earlier.path
        worked.safeCopies = [SafeCopy(path: earlier.path, digest: digest)]
        source.worked = worked
        return .next
    }

    /// A dry run filed nothing for the first source of these bytes, but says of the second what
    /// the import would: a duplicate of the first.
    private func wouldBeDuplicate(_ source: inout SourceInProgress, in run: ImportRun) -> ImportStepResult {
        guard var worked = source.worked, worked.outcome.status == .imported,
              worked.filed.count == 1, worked.outcome.alsoFiled.isEmpty, let filed = worked.filed.first,
              run.layout.photoFormats.format(forExtension: (filed.path as NSString).pathExtension)?.isSidecar != true,
              let subject = worked.outcome.subject, let digest = ContentDigest(hex: filed.sha256),
              let earlier = run.worker.dryRunFilings.photo(of: subject, digest: digest, wouldBeFiledAt: filed.path),
              let destination = try? run.layout.url(forRelativePath: earlier).path
        else { return .next }
        worked.outcome.status = .duplicate
        worked.outcome.destination = destination
        worked.outcome.rendition = nil
        worked.filed = []
        worked.renditions = []
        source.worked = worked
        return .next
    }
}
