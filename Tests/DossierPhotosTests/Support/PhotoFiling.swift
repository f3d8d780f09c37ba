import DossierCore
import DossierPhotos
import Logging

/// Runs bytes through the photos plugin as an import would: sniff, import, orient.
enum PhotoFiling {
    struct NotAPhoto: Error {}

    static let registry = try! PluginRegistry(plugins: [.photos])

    static func upright(_ bytes: [UInt8], path: String = "/virtual/photo") throws -> Photo {
        let source = SourceFile(path: path, size: Int64(bytes.count), modificationTime: 1_700_000_000_000_000_000)
        guard let importer = registry.importer(for: Array(bytes.prefix(ImportPipeline.sniffLength))) else {
            throw NotAPhoto()
        }
        var items = try importer.read(SourceData(source: source, bytes: bytes),
                                      context: ImportContext(logger: Logger(label: "test")))
        for transform in registry.transforms {
            items = try transform.apply(to: items, context: TransformContext(logger: Logger(label: "test")))
        }
        guard items.count == 1, case .photo(let photo) = items[0] else { throw NotAPhoto() }
        return photo
    }

    /// The importer's view only (no transforms), for what it reads from metadata.
    static func imported(_ bytes: [UInt8], path: String = "/virtual/photo") throws -> Photo {
        let source = SourceFile(path: path, size: Int64(bytes.count), modificationTime: 1_700_000_000_000_000_000)
        guard let importer = registry.importer(for: Array(bytes.prefix(ImportPipeline.sniffLength))),
              case .photo(let photo)? = try importer.read(SourceData(source: source, bytes: bytes),
                                                          context: ImportContext(logger: Logger(label: "test"))).first
        else { throw NotAPhoto() }
        return photo
    }
}
