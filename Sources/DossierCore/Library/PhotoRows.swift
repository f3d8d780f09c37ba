/// What one photo source gave the index: its filed files, its source row, and the originals
/// kept of it; committed with others (`IndexBatch`).
public struct PhotoRows: Sendable {
    public var filed: [FiledFile]
    public var source: ImportedSource?
    public var originals: [KeptOriginal]

    public init(filed: [FiledFile], source: ImportedSource?, originals: [KeptOriginal] = []) {
        self.filed = filed
        self.source = source
        self.originals = originals
    }
}
