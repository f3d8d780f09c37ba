import DossierCore

/// Files a picture beside each photo browsers cannot show (`PhotoFormat.hasRendition`: a HEIC's
/// JPEG, or a PNG with alpha; a TIFF's, a BMP's, a JPEG XL's, a raw's), made by its format's
/// handler (`PhotoFormatHandler.rendition`), upright as displayed. Making one decodes the
/// picture whole, which also proves a HEIF whole.
public struct RenditionTransform: Transform {
    public let name = "rendition"
    public let summary = "files a JPEG (with alpha, a PNG) beside each HEIC, TIFF, BMP, JPEG XL and raw, upright as displayed"
    public let stage = TransformStage.content
    let handlers: PhotoFormatHandlers

    public init(handlers: [any PhotoFormatHandler]) {
        self.handlers = PhotoFormatHandlers(handlers)
    }

    public func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        for index in batch.items.indices {
            guard case .photo(var photo) = batch.items[index], photo.format.hasRendition, photo.rendition == nil,
                  let handler = handlers[photo.format]
            else { continue }
            var warnings = photo.warnings
            let rendition = try handler.rendition(of: photo, warnings: &warnings)
            // Also without one: the warnings say why it has none.
            photo.warnings = warnings
            guard let rendition else {
                batch.items[index] = .photo(photo)
                continue
            }
            photo.rendition = rendition
            photo.isVerified = photo.isVerified || photo.format.isHEIF
            batch.items[index] = .photo(photo)
        }
    }
}
