import DossierCore

/// The handler of each format a plugin registered, for the transforms to find a photo's own: the
/// first handler registered for a format is its handler.
struct PhotoFormatHandlers: Sendable {
    private let byFormat: [PhotoFormat: any PhotoFormatHandler]

    init(_ handlers: [any PhotoFormatHandler]) {
        var byFormat: [PhotoFormat: any PhotoFormatHandler] = [:]
        for handler in handlers {
            for format in handler.formats where byFormat[format] == nil { byFormat[format] = handler }
        }
        self.byFormat = byFormat
    }

    subscript(format: PhotoFormat) -> (any PhotoFormatHandler)? {
        byFormat[format]
    }
}
