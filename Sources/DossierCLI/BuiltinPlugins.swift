import DossierCore
import DossierPhotos
import DossierRecords

/// The plugins every `dossier` command runs with. Adding an importer or transform is one new
/// file in its target plus one line in that target's plugin, or a new plugin here.
public enum BuiltinPlugins {
    /// The registry a command runs with; `renditions` as `--renditions` says.
    public static func registry(renditions: PhotoRenditions = .jpeg) throws -> PluginRegistry {
        try PluginRegistry(plugins: plugins(renditions: renditions))
    }

    /// The formats the plugins file photos in, for the library's layout: every command that
    /// opens a library may rebuild its index, which tells a rendition from a photo by them.
    /// (The registry checks them; every import builds it.)
    public static var photoFormats: PhotoFormats {
        PhotoFormats(plugins(renditions: .jpeg).flatMap(\.photoFormats))
    }

    private static func plugins(renditions: PhotoRenditions) -> [Plugin] {
        [.core, .photos(largePhoto: .standard, renditions: renditions), .records]
    }
}
