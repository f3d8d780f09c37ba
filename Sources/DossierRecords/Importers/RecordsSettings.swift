import DossierCore
import Foundation

/// A library's settings for reading records, from `<library>/config/records.json`:
/// `{"monthFirst": false}` reads 5/3 as 5 March (the default reads it as May 3), in notepad logs
/// and in CSV columns whose every date reads either way.
public struct RecordsSettings: Codable, Sendable, Equatable {
    public var monthFirst: Bool

    public init(monthFirst: Bool = true) {
        self.monthFirst = monthFirst
    }

    private enum CodingKeys: String, CodingKey { case monthFirst }

    /// A key left out means its default: `{}` is a whole settings file.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        monthFirst = try container.decodeIfPresent(Bool.self, forKey: .monthFirst) ?? true
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
