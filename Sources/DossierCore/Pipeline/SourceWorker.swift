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
    let index: LibraryIndex?
    let filer: Filer
    let context: PipelineContext

    static let noSubjectReason =
        "no subject: give --subject KIND/ID, or put the file under a pets/<id> or children/<id> folder"

    func work(on found: SourceDiscovery.Found) -> WorkedSource {
        switch found {
        case .unreadable(let path, let reason):
            return WorkedSource(outcome: SourceOutcome(source: path, status: .failed, error: "\(path): \(reason)"))
        case .file(let source):
            do {
                return try work(on: source)
            } catch let failure as ImportFailure {
                return WorkedSource(outcome: SourceOutcome(source: source.path, status: .failed,
                                                           error: failure.description), source: source)
            } catch {
                let failure = ImportFailure(path: source.path, step: "file", error: error)
                return WorkedSource(outcome: SourceOutcome(source: source.path, status: .failed,
                                                           error: failure.description), source: source)
            }
        }
    }

    private func work(on source: SourceFile) throws -> WorkedSource {
        if let earlier = try unchangedImport(of: source) { return earlier }
        let head = try step("read", source) {
            try DurableFileSystem.readHead(source.path, count: ImportPipeline.sniffLength)
        }
        guard let importer = registry.importer(for: head) else {
            let type = FileTypeDescription.describe(head: head)
            return WorkedSource(outcome: SourceOutcome(
                source: source.path, status: .skipped,
                error: "\(source.path): not a kind of file Dossier imports (it looks like \(type))"), source: source)
        }
        let collector = SourceCollector(worker: self, source: source)
        do {
            try importer.read(SourceInput(source: source, head: head), context: context, into: collector)
            try collector.flush()
            return try collector.finish()
        } catch let notImportable as NotImportable {
            collector.discard()
            return WorkedSource(outcome: SourceOutcome(source: source.path, status: .skipped,
                                                       error: "\(source.path): \(notImportable.reason)"), source: source)
        } catch let failure as ImportFailure {
            collector.discard()
            throw failure
        } catch {
            collector.discard()
            throw ImportFailure(path: source.path, step: importer.name, error: error)
        }
    }

    /// A source imported before and unchanged since (same path, size and mtime, same --subject),
    /// whose filed file is still there: settled without reading a byte of it.
    private func unchangedImport(of source: SourceFile) throws -> WorkedSource? {
        guard let earlier = try index?.unchangedSource(source, requestedSubject: options.requestedSubject),
              let filed = try? layout.url(forRelativePath: earlier.filedPath),
              DurableFileSystem.fileExists(filed.path)
        else { return nil }
        let subject = try? Subject(parsing: earlier.subject)
        return WorkedSource(outcome: SourceOutcome(source: source.path, status: .duplicate, subject: subject,
                                                   destination: filed.path), source: source)
    }

    /// Files one photo: skipped if its source bytes are already filed for the subject (before
    /// any decoding), else transformed and filed.
    func file(_ photo: Photo) throws -> WorkedSource {
        let source = photo.source
        guard let subject = photo.subject else { throw ImportFailure(path: source.path, step: "route", reason: "no subject") }
        if let known = try index?.filedFile(for: subject, sourceDigest: photo.sourceDigest),
           let filed = try? layout.url(forRelativePath: known.path), DurableFileSystem.fileExists(filed.path) {
            return WorkedSource(outcome: SourceOutcome(source: source.path, status: .duplicate, subject: subject,
                                                       destination: filed.path),
                                source: source, imported: importedSource(photo, subject: subject, filedPath: known.path))
        }
        let transformed = try transform(ItemBatch(items: [.photo(photo)]))
        guard transformed.records.isEmpty, transformed.items.count == 1, case .photo(let upright) = transformed.items[0] else {
            throw ImportFailure(path: source.path, step: "transform", reason: "the transforms did not give back one photo")
        }
        let result = try step("file", source) { try filer.file(upright, for: subject) }
        switch result {
        case .duplicate(let path):
            return WorkedSource(
                outcome: SourceOutcome(source: source.path, status: .duplicate, subject: subject,
                                       destination: try layout.url(forRelativePath: path).path, warnings: upright.warnings),
                source: source, imported: importedSource(photo, subject: subject, filedPath: path))
        case .filed(let path, let digest), .adopted(let path, let digest):
            let filed = FiledFile(path: path, subject: subject.path, sha256: digest.hex,
                                  sourceSha256: photo.sourceDigest.hex, size: Int64(upright.bytes.count),
                                  capturedAt: upright.captureDate.dateTime.iso8601,
                                  filedAt: ISO8601DateFormatter().string(from: Date()))
            return WorkedSource(
                outcome: SourceOutcome(source: source.path, status: .imported, subject: subject,
                                       destination: try layout.url(forRelativePath: path).path, warnings: upright.warnings),
                source: source, filed: filed, imported: importedSource(photo, subject: subject, filedPath: path))
        }
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
        ImportedSource(path: photo.source.path, requestedSubject: options.requestedSubject?.path ?? "",
                       size: photo.source.size, modificationTime: photo.source.modificationTime,
                       sha256: photo.sourceDigest.hex, subject: subject.path, filedPath: filedPath)
    }

    /// Runs one step, turning any error into an `ImportFailure` that names the file and the step.
    func step<T>(_ name: String, _ source: SourceFile, _ body: () throws -> T) throws(ImportFailure) -> T {
        do {
            return try body()
        } catch let failure as ImportFailure {
            throw failure
        } catch {
            throw ImportFailure(path: source.path, step: name, error: error)
        }
    }
}
