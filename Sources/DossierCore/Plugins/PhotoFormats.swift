/// The photo formats the installed plugins registered: what a filed file is, told by its
/// extension, for whoever reads the library's folders without the pipeline (rebuilding the index).
public struct PhotoFormats: Sendable {
    /// In registration order.
    public let all: [PhotoFormat]
    private let byExtension: [String: PhotoFormat]

    /// The formats, each once; a format registered again is the same format, taken once.
    public init(_ formats: [PhotoFormat] = []) {
        var all: [PhotoFormat] = []
        var byExtension: [String: PhotoFormat] = [:]
        for format in formats where byExtension[format.fileExtension] == nil {
            byExtension[format.fileExtension] = format
            all.append(format)
        }
        self.all = all
        self.byExtension = byExtension
    }

    /// The format filed under `fileExtension` (exactly as filed: `jpg`, not `JPG`); nil when no
    /// plugin registered one.
    public func format(forExtension fileExtension: String) -> PhotoFormat? {
        byExtension[fileExtension]
    }
}
