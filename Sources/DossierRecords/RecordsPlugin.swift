import DossierCore

extension Plugin {
    /// Records and profiles: notepad logs, CSV exports and property lists, normalised.
    /// Importers are asked in order: property lists and CSV are recognised by their content
    /// before any other text is taken for a notepad log.
    public static let records = Plugin(
        name: "records",
        summary: "care records and profiles from notepad logs, CSV and property lists, normalised and filed per subject",
        importers: [PropertyListImporter(), CSVImporter(), NotepadImporter()],
        transforms: [ClassifyTransform(), UnitsTransform(), SpeciesTransform(), DeriveTransform()]
    )
}
