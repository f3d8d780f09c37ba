import DossierCore
import Foundation

/// Reads property lists (XML and binary) as iOS apps keep them: saved subject profiles, picker
/// taxonomies (class -> species -> morphs) that fill the species table, and dated record
/// dictionaries. Which one a file is, its shape tells.
public struct PropertyListImporter: Importer {
    public let name = "plist"
    public let summary = "property lists (XML, binary): profiles, species taxonomies, dated records"

    public init() {}

    public func canRead(head: [UInt8]) -> Bool {
        if head.starts(with: Array("bplist".utf8)) { return true }
        let text = String(decoding: head.prefix(1024), as: UTF8.self)
        return text.contains("<plist") || text.contains("<!DOCTYPE plist")
    }

    /// Property lists are small (an app's saved state): read whole, with a cap.
    static let maximumSize: Int64 = 64 << 20

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        guard input.source.size <= PropertyListImporter.maximumSize else {
            throw SourceReadError.tooLarge(size: input.source.size, limit: PropertyListImporter.maximumSize)
        }
        let root = try PropertyListLoader.load(try input.readAll().bytes, path: input.source.path)
        let resources = try RecordImportResources.of(context)
        var reader = PropertyListContent(source: input.source, sink: sink, resources: resources, context: context)
        try reader.read(root)
    }
}
