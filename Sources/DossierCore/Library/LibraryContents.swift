/// Everything the index says the library holds, read in one transaction, so a check made
/// against it (`LibraryVerifier`) sees one moment of the library even while the daemon files.
public struct LibraryContents: Sendable {
    /// The filed photos, videos, sidecars and audio, by path.
    public var filed: [FiledFile]
    /// The year files of records, by path.
    public var recordFiles: [RecordFileSummary]
    /// The kept copies of text sources under `sources/`.
    public var keptSources: [KeptSource]
    /// The photos' sources kept under `originals/`.
    public var originals: [KeptOriginal]
    /// The sources imported, and where their content was filed.
    public var sources: [ImportedSource]
    /// The renditions beside filed photos, by path.
    public var renditions: [FiledRendition]

    public init(filed: [FiledFile], recordFiles: [RecordFileSummary], keptSources: [KeptSource], originals: [KeptOriginal],
                sources: [ImportedSource], renditions: [FiledRendition] = []) {
        self.filed = filed
        self.recordFiles = recordFiles
        self.keptSources = keptSources
        self.originals = originals
        self.sources = sources
        self.renditions = renditions
    }
}
