import DossierCore
import DossierPhotos
import DossierRecords

/// The plugins every `dossier` command runs with. Adding an importer or transform is one new
/// file in its target plus one line in that target's plugin, or a new plugin here.
public enum BuiltinPlugins {
    /// The registry a command runs with; `renditions` as `--renditions` says.
    public static func registry(renditions: PhotoRenditions = .jpeg) throws -> PluginRegistry {
        try PluginRegistry(plugins: [.core, .photos(largePhoto: .standard, renditions: renditions), .records])
    }
}
