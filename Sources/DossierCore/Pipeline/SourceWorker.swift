import Foundation
import Logging

/// Takes one source from its path to its filed files. Runs concurrently with other workers, so it
/// only reads the index; the driving task records what it did.
struct SourceWorker: Sendable {
    let registry: PluginRegistry
    let layout: LibraryLayout
    let options: ImportOptions
    let index: LibraryIndex?
    let filer: Filer
    let routing: RoutingContext
    let logger: Logger

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
        let data = SourceData(source: source, bytes: try step("read", source) {
            try DurableFileSystem.readFile(source.path, limit: ImportPipeline.maximumSourceSize)
        })
        var items = try step(importer.name, source) {
            try importer.read(data, context: ImportContext(logger: logger))
        }
        for position in items.indices {
            switch route(items[position]) {
            case .subject(let subject):
                items[position].subject = subject
            case .unassigned(let reason):
                return unassigned(source, reason: reason)
            case .undecided:
                return unassigned(source, reason: SourceWorker.noSubjectReason)
            }
        }
        if let duplicate = try alreadyImported(data, items: items) { return duplicate }
        for transform in registry.transforms {
            items = try step(transform.name, source) {
                try transform.apply(to: items, context: TransformContext(logger: logger))
            }
        }
        return try file(items, from: data)
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

    /// The same source bytes already filed for the same subject: no need to decode them again.
    private func alreadyImported(_ data: SourceData, items: [Item]) throws -> WorkedSource? {
        guard items.count == 1, let subject = items[0].subject,
              let known = try index?.filedFile(for: subject, sourceDigest: data.digest),
              let filed = try? layout.url(forRelativePath: known.path),
              DurableFileSystem.fileExists(filed.path)
        else { return nil }
        return WorkedSource(
            outcome: SourceOutcome(source: data.source.path, status: .duplicate, subject: subject,
                                   destination: filed.path),
            source: data.source, imported: importedSource(data, subject: subject, filedPath: known.path))
    }

    private func file(_ items: [Item], from data: SourceData) throws -> WorkedSource {
        guard items.count == 1, case .photo(let photo) = items[0], let subject = photo.subject else {
            throw ImportFailure(path: data.source.path, step: "file",
                                reason: "the importer gave \(items.count) items; one photo was expected")
        }
        let result = try step("file", data.source) { try filer.file(photo, for: subject) }
        switch result {
        case .duplicate(let path):
            return WorkedSource(
                outcome: SourceOutcome(source: data.source.path, status: .duplicate, subject: subject,
                                       destination: try layout.url(forRelativePath: path).path,
                                       warnings: photo.warnings),
                source: data.source, imported: importedSource(data, subject: subject, filedPath: path))
        case .filed(let path, let digest), .adopted(let path, let digest):
            let filed = FiledFile(path: path, subject: subject.path, sha256: digest.hex,
                                  sourceSha256: data.digest.hex, size: Int64(photo.bytes.count),
                                  capturedAt: photo.captureDate.dateTime.iso8601,
                                  filedAt: ISO8601DateFormatter().string(from: Date()))
            return WorkedSource(
                outcome: SourceOutcome(source: data.source.path, status: .imported, subject: subject,
                                       destination: try layout.url(forRelativePath: path).path,
                                       warnings: photo.warnings),
                source: data.source, filed: filed,
                imported: importedSource(data, subject: subject, filedPath: path))
        }
    }

    private func route(_ item: Item) -> RoutingDecision {
        for router in registry.routers {
            let decision = router.route(item, context: routing)
            if decision != .undecided { return decision }
        }
        return .undecided
    }

    private func unassigned(_ source: SourceFile, reason: String) -> WorkedSource {
        WorkedSource(outcome: SourceOutcome(source: source.path, status: .unassigned,
                                            error: "\(source.path): \(reason)"), source: source)
    }

    private func importedSource(_ data: SourceData, subject: Subject, filedPath: String) -> ImportedSource {
        ImportedSource(path: data.source.path, requestedSubject: options.requestedSubject?.path ?? "",
                       size: data.source.size, modificationTime: data.source.modificationTime,
                       sha256: data.digest.hex, subject: subject.path, filedPath: filedPath)
    }

    /// Runs one step, turning any error into an `ImportFailure` that names the file and the step.
    private func step<T>(_ name: String, _ source: SourceFile, _ body: () throws -> T) throws(ImportFailure) -> T {
        do {
            return try body()
        } catch let failure as ImportFailure {
            throw failure
        } catch {
            throw ImportFailure(path: source.path, step: name, error: error)
        }
    }
}
