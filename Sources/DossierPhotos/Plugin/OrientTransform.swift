import DossierCore

/// Makes every photo look right without help from its tag, each as its format's handler says
/// (`PhotoFormatHandler.upright`): a JPEG or PNG turned by its pixels, a HEIF by its container,
/// a movie left to its players. A photo of a format none of its handlers files is another
/// plugin's, and passes as it is.
public struct OrientTransform: Transform {
    public let name = "orient"
    public let summary = "turns photos upright per their EXIF Orientation (lossless for JPEG where the MCUs allow)"
    public let stage = TransformStage.content
    let handlers: PhotoFormatHandlers

    public init(handlers: [any PhotoFormatHandler]) {
        self.handlers = PhotoFormatHandlers(handlers)
    }

    public func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        for index in batch.items.indices {
            guard case .photo(let photo) = batch.items[index], let handler = handlers[photo.format] else { continue }
            batch.items[index] = .photo(try handler.upright(photo))
        }
    }
}
