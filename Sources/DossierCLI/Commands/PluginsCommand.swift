import ArgumentParser
import DossierCore

/// `dossier plugins`: what is installed, and what each plugin registers.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the built-in plugins and the importers, transforms and routers each registers.")

    func run() throws {
        StandardStreams.writeOut(PluginsCommand.listing(try BuiltinPlugins.registry()))
    }

    static func listing(_ registry: PluginRegistry) -> String {
        var text = ""
        for plugin in registry.plugins {
            text += "\(plugin.name): \(plugin.summary)\n"
            for importer in plugin.importers { text += "  importer   \(importer.name): \(importer.summary)\n" }
            for transform in plugin.transforms {
                text += "  transform  \(transform.name) [\(transform.stage)]: \(transform.summary)\n"
            }
            for router in plugin.routers { text += "  router     \(router.name): \(router.summary)\n" }
            for listener in plugin.listeners { text += "  listener   \(type(of: listener))\n" }
            for format in plugin.photoFormats { text += "  format     \(format.fileExtension): \(PluginsCommand.describe(format))\n" }
        }
        return text
    }

    private static func describe(_ format: PhotoFormat) -> String {
        if format.isVideo { return "\(format.displayName), a movie filed as it is under videos/" }
        if format.isAudio { return "\(format.displayName), sound filed as it is under audio/" }
        if format.isHEIF { return "\(format.displayName), filed as it is (its container carries the turn)" }
        if format.joinsItsStill {
            return "\(format.displayName), filed as it is with a rendition of its preview, or beside its camera's JPEG"
        }
        if format.hasRendition { return "\(format.displayName), filed as it is with an upright rendition beside it" }
        return format.displayName
    }
}
