import DossierCore
import Foundation

/// A library's settings for reading records, from `<library>/config/records.json`:
/// `{"monthFirst": false}` reads 5/3 as 5 March (the default reads it as May 3).
public struct RecordsSettings: Codable, Sendable, Equatable {
    public var monthFirst: Bool

    public init(monthFirst: Bool = true) {
        self.monthFirst = monthFirst
    }

    public static let configurationPath = "config/records.json"

    public static func load(for layout: LibraryLayout) throws -> RecordsSettings {
        let url = layout.root.appendingPathComponent(configurationPath)
        guard FileManager.default.fileExists(atPath: url.path) else { return RecordsSettings() }
        do {
            return try JSONDecoder().decode(RecordsSettings.self, from: Data(contentsOf: url))
        } catch {
            throw LibraryConfigurationError(path: url.path, reason: "\(error)")
        }
    }
}
