import DossierCore
import Foundation

/// Species read from a taxonomy (picker data kept in a property list), on their way into the
/// library's own additions to the species table (`config/species.json`).
public struct SpeciesEntriesItem: CustomItem {
    public let entries: [SpeciesEntry]
    public let source: SourceFile
    public var subject: Subject?
    public let needsSubject = false
    public let itemName = "species entries"

    public init(entries: [SpeciesEntry], source: SourceFile) {
        self.entries = entries
        self.source = source
    }

    public func file(in context: FilingContext) throws -> CustomFilingResult {
        let existing = try LibrarySpecies.additions(for: context.layout)
        let table = SpeciesTable.builtIn.merging(existing)
        let merged = SpeciesTable(entries: existing).merging(entries.map { SpeciesEntriesItem.canonical($0, in: table) }).entries
        let path = LibrarySpecies.configurationPath
        if merged == existing { return .unchanged(path: path) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-species-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try SpeciesTable.save(merged, to: url)
        try context.replaceFile(atRelativePath: path, with: Array(try Data(contentsOf: url)))
        return .filed(path: path)
    }

    /// An app's picker names species its own way ("Leopard Gecko"): filed under the table's
    /// canonical entry when the table knows it, with the app's name kept as an alias.
    static func canonical(_ entry: SpeciesEntry, in table: SpeciesTable) -> SpeciesEntry {
        guard let match = table.match(entry.species), match.subspecies == nil, match.morph == nil else { return entry }
        var canonical = entry
        canonical.species = match.entry.species
        canonical.animalClass = match.entry.animalClass
        if entry.species != match.entry.species, !canonical.aliases.contains(entry.species) {
            canonical.aliases.append(entry.species)
        }
        return canonical
    }
}
