import DossierCore
import Foundation

/// The species table a library uses: the built-in one with the library's own additions from
/// `<library>/config/species.json` (written by keepers, or by importing a taxonomy plist).
public enum LibrarySpecies {
    public static let configurationPath = "config/species.json"

    public static func additions(for layout: LibraryLayout) throws -> [SpeciesEntry] {
        let url = layout.root.appendingPathComponent(configurationPath)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try SpeciesTable.load(from: url)
    }

    public static func table(for layout: LibraryLayout) throws -> SpeciesTable {
        SpeciesTable.builtIn.merging(try additions(for: layout))
    }
}
