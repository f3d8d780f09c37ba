/// What one photo source gave the index: its filed files and their renditions, its source row,
/// and the originals kept of it; committed with others (`IndexBatch`).
public struct PhotoRows: Sendable {
    public var filed: [FiledFile]
    public var renditions: [FiledRendition]
    public var source: ImportedSource?
    public var originals: [KeptOriginal]

    public init(filed: [FiledFile], renditions: [FiledRendition] = [], source: ImportedSource?, originals: [KeptOriginal] = []) {
        self.filed = filed
        self.renditions = renditions
        self.source = source
        self.originals = originals
    }
}
