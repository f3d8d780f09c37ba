import DossierCore
import Foundation

/// A library's settings for reading records, from `<library>/config/records.json`:
/// - `"monthFirst": false` reads 5/3 as 5 March (the default reads it as May 3), in notepad logs
///   and in CSV columns whose every date reads either way;
/// - `"units": {"weight": "kg", "feeding": "oz"}` names the unit of numbers written with none
///   (a `Weight` column of `8.3`), by the record's kind or the measurement's name (`weight`,
///   `length`, `amount`, `duration`). Without it, such a number takes the only unit that makes
///   it plausible for its subject, or is kept as text and reported.
public struct RecordsSettings: Codable, Sendable, Equatable {
    public var monthFirst: Bool
    public var units: [String: String]

    public init(monthFirst: Bool = true, units: [String: String] = [:]) {
        self.monthFirst = monthFirst
        self.units = units
    }

    private enum CodingKeys: String, CodingKey { case monthFirst, units }

    /// A key left out means its default: `{}` is a whole settings file. A unit nobody knows is
    /// refused here, so a typo never leaves numbers silently without one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        monthFirst = try container.decodeIfPresent(Bool.self, forKey: .monthFirst) ?? true
        units = try container.decodeIfPresent([String: String].self, forKey: .units) ?? [:]
        if let problem = RecordsSettings.problem(with: units) {
            throw DecodingError.dataCorruptedError(forKey: .units, in: container, debugDescription: problem)
        }
    }

    public static let configurationPath = "config/records.json"

    /// What is wrong with a `units` table, if anything: a unit nobody knows, one that does not
    /// measure what its key does (`"weight": "ml"`), a count word, or two keys that differ only
    /// in case (which one would win is chance).
    static func problem(with units: [String: String]) -> String? {
        let known = "use one of g, kg, lb, oz, cm, mm, m, in, ml, l, fl oz, min, h"
        var seen: [String: String] = [:]
        for (key, unit) in units.sorted(by: { $0.key < $1.key }) {
            if let other = seen[key.lowercased()] { return "'\(other)' and '\(key)' under 'units' name the same thing; keep one" }
            seen[key.lowercased()] = key
            let meanings = CSVHeaderVocabulary.meanings(of: unit).filter { $0.unit != .count }
            guard !meanings.isEmpty else { return "'\(unit)' (for '\(key)') is not a unit Dossier knows; \(known)" }
            let dimension = UnitSettler.dimension(ofKind: key.lowercased()) ?? UnitSettler.dimension(named: key.lowercased())
            if let dimension, !meanings.contains(where: { $0.unit == dimension }) {
                return "'\(unit)' (for '\(key)') does not measure a \(UnitSettler.what(dimension)); \(known)"
            }
        }
        return nil
    }

    public static func load(for layout: LibraryLayout) throws -> RecordsSettings {
        let url = layout.root.appendingPathComponent(configurationPath)
        guard FileManager.default.fileExists(atPath: url.path) else { return RecordsSettings() }
        do {
            return try JSONDecoder().decode(RecordsSettings.self, from: Data(contentsOf: url))
        } catch let DecodingError.dataCorrupted(context) {
            throw LibraryConfigurationError(path: url.path, reason: context.debugDescription)
        } catch DecodingError.typeMismatch(_, let context) {
            let place = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw LibraryConfigurationError(path: url.path, reason: "'\(place)' is not what it should be: "
                + #"{"monthFirst": true or false, "units": {"weight": "kg", ...}}"#)
        } catch {
            throw LibraryConfigurationError(path: url.path, reason: "\(error)")
        }
    }
}
