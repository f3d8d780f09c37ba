/// Everything the installed plugins registered, in the order the pipeline uses it.
public struct PluginRegistry: Sendable {
    public let plugins: [Plugin]
    public let importers: [any Importer]
    /// Sorted by stage; registration order within a stage.
    public let transforms: [any Transform]
    public let routers: [any Router]
    public let listeners: [any OutcomeListener]
    /// The standard steps with those the plugins add.
    public let steps: ImportSteps
    public let photoFormats: PhotoFormats

    public init(plugins: [Plugin]) throws(PluginError) {
        var seen = Set<String>()
        for plugin in plugins {
            guard seen.insert(plugin.name).inserted else { throw PluginError.duplicateName(plugin.name) }
        }
        // One extension, one format: a file filed as `.webp` must read back as the format it was.
        var formats: [String: PhotoFormat] = [:]
        for format in plugins.flatMap(\.photoFormats) {
            if let other = formats.updateValue(format, forKey: format.fileExtension), other != format {
                throw PluginError.conflictingPhotoFormats(fileExtension: format.fileExtension)
            }
        }
        photoFormats = PhotoFormats(plugins.flatMap(\.photoFormats))
        self.plugins = plugins
        importers = plugins.flatMap(\.importers)
        transforms = plugins.flatMap(\.transforms).enumerated()
            .sorted { ($0.element.stage, $0.offset) < ($1.element.stage, $1.offset) }
            .map(\.element)
        routers = plugins.flatMap(\.routers)
        listeners = plugins.flatMap(\.listeners)
        steps = ImportSteps.standard.adding(plugins.flatMap(\.steps))
    }

    /// The first importer that recognises the bytes.
    public func importer(for head: [UInt8]) -> (any Importer)? {
        importers.first { $0.canRead(head: head) }
    }
}
