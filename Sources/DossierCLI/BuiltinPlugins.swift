import DossierCore
import DossierPhotos
import DossierRecords

/// The plugins every `dossier` command runs with. Adding an importer or transform is one new
/// file in its target plus one line in that target's plugin, or a new plugin here.
public enum BuiltinPlugins {
    public static let all: [Plugin] = [.core, .photos, .records]

    public static func registry() throws -> PluginRegistry {
        try PluginRegistry(plugins: all)
    }
}
