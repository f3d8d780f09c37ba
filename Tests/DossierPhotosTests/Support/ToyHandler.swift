import DossierCore
import DossierPhotos

/// A format added the way any is: this handler, its `PhotoFormat` value (`PhotoFormat+Toy.swift`)
/// and one line registering it. Its files start `TOYPHOTO`, carry no turn and no date (the file's
/// mtime dates them), and are filed byte for byte.
struct ToyHandler: PhotoFormatHandler {
    static let magic = Array("TOYPHOTO".utf8)

    let name = "toy"
    let summary = "toy photos (recognised by their TOYPHOTO start), filed as they are"
    let formats: [PhotoFormat] = [.toy]

    func canRead(head: [UInt8]) -> Bool {
        head.starts(with: ToyHandler.magic)
    }

    func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let data = try input.readAll()
        try sink.accept(.photo(Photo(
            source: input.source, format: .toy, content: .memory(data.bytes), sourceDigest: data.digest,
            orientation: .up, width: 1, height: 1,
            captureDate: CaptureDate(input.source.modificationDate, in: context.timeZone, origin: .fileModificationTime),
            exif: nil, isVerified: true)))
    }

    func upright(_ photo: Photo) -> Photo {
        photo
    }
}
