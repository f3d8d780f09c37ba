import DossierCore
import DossierPhotos
import Foundation
import Logging

/// Runs bytes through the photos plugin as an import would: sniff, import, orient.
enum PhotoFiling {
    struct NotAPhoto: Error {}

    static let registry = try! PluginRegistry(plugins: [.photos])
    /// Every photo taken as a large one: copied to a scratch file and turned through scratch files.
    static let largeRegistry = try! PluginRegistry(plugins: [.photos(largePhoto: LargePhoto(fileSize: 0, pixels: 0))])

    static let context = PipelineContext(
        logger: Logger(label: "test"), layout: LibraryLayout(root: URL(fileURLWithPath: "/nonexistent")),
        routing: RoutingContext(requestedSubject: nil, existingSubjects: []))

    /// Keeps what an importer hands over.
    final class Collector: ItemSink {
        var items: [Item] = []
        func accept(_ item: consuming Item) throws { items.append(item) }
        func report(_ problem: SourceProblem) {}
    }

    static func upright(_ bytes: [UInt8], path: String = "/virtual/photo", asLarge: Bool = false,
                        scratchFolder: ScratchFolder = .temporary) throws -> Photo {
        let registry = asLarge ? largeRegistry : registry
        let context = PipelineContext(logger: context.logger, layout: context.layout, routing: context.routing,
                                      scratchFolder: scratchFolder)
        var batch = ItemBatch(items: try read(bytes, path: path, registry: registry, context: context))
        for transform in registry.transforms {
            try transform.apply(to: &batch, context: context)
        }
        guard batch.records.isEmpty, batch.items.count == 1, case .photo(let photo) = batch.items[0] else { throw NotAPhoto() }
        return photo
    }

    /// The importer's view only (no transforms), for what it reads from metadata.
    static func imported(_ bytes: [UInt8], path: String = "/virtual/photo") throws -> Photo {
        guard case .photo(let photo)? = try read(bytes, path: path, registry: registry, context: context).first else {
            throw NotAPhoto()
        }
        return photo
    }

    /// Writes the bytes to a temporary file (importers read files) and imports it.
    private static func read(_ bytes: [UInt8], path: String, registry: PluginRegistry,
                             context: PipelineContext) throws -> [Item] {
        let head = Array(bytes.prefix(ImportPipeline.sniffLength))
        guard let importer = registry.importer(for: head) else { throw NotAPhoto() }
        // Under the name `path` ends in (a name may carry a date), in a folder of its own.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-photo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent((path as NSString).lastPathComponent)
        try Data(bytes).write(to: file)
        let source = SourceFile(path: file.path, size: Int64(bytes.count), modificationTime: 1_700_000_000_000_000_000)
        let collector = Collector()
        try importer.read(SourceInput(source: source, head: head), context: context, into: collector)
        return collector.items
    }
}
