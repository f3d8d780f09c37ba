import DossierCore

/// Files a picture beside each photo whose container carries its turn (a HEIC's JPEG, or PNG
/// with alpha), made by its format's handler (`PhotoFormatHandler.rendition`), upright as
/// displayed. Making it decodes the picture whole, which also proves the photo whole.
public struct RenditionTransform: Transform {
    public let name = "rendition"
    public let summary = "files a JPEG (with alpha, a PNG) beside each HEIC, upright as displayed"
    public let stage = TransformStage.content
    let handlers: PhotoFormatHandlers

    public init(handlers: [any PhotoFormatHandler]) {
        self.handlers = PhotoFormatHandlers(handlers)
    }

    public func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        for index in batch.items.indices {
            guard case .photo(var photo) = batch.items[index], photo.format.isHEIF, photo.rendition == nil,
                  let handler = handlers[photo.format]
            else { continue }
            var warnings = photo.warnings
            guard let rendition = try handler.rendition(of: photo, warnings: &warnings) else { continue }
            photo.rendition = rendition
            photo.warnings = warnings
            photo.isVerified = true
            batch.items[index] = .photo(photo)
        }
    }
}
