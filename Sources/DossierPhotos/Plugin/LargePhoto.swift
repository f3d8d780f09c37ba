import DossierCore

/// Which photos are too large to hold in memory while they are imported and turned.
///
/// Turning a photo in memory holds its file, its output, and its DCT coefficients or pixels
/// whole: for the largest photo a camera makes (12000x12000), 1.3 GB for a JPEG and 2 GB for a
/// 16-bit PNG. A large photo is copied to a scratch file in the library's staging folder instead
/// (hashed as it is copied), the codecs read it from there and write the upright photo to another
/// scratch file, which filing links into place, and keep its coefficients or pixels in mapped
/// scratch files of which only the part in use is resident. Everyday photos stay in memory,
/// where they are quicker.
public struct LargePhoto: Sendable {
    /// A file larger than this is not read into memory.
    public var fileSize: Int64
    /// A picture with more pixels than this is turned through scratch files.
    public var pixels: Int

    public init(fileSize: Int64, pixels: Int) {
        self.fileSize = fileSize
        self.pixels = pixels
    }

    /// 64 MiB and 48 MP: the worst photo still turned in memory (a progressive 4:4:4 JPEG just
    /// under 48 MP) fits, with the turns sharing TurnMemoryBudget, in the memory an import may
    /// take whatever --jobs (docs/performance.md, "Large photos on disk").
    public static let standard = LargePhoto(fileSize: 64 << 20, pixels: 48_000_000)

    /// A photo's bytes as an importer hands them over: in memory when the file is small enough,
    /// else copied to a scratch file. `describe` reads what the importer needs from them (its
    /// header, its metadata), given the content.
    func read<Facts>(_ input: SourceInput, context: PipelineContext,
                     describe: (PhotoContent) throws -> Facts, pixels: (Facts) -> Int) throws
        -> (content: PhotoContent, digest: ContentDigest, facts: Facts)
    {
        guard input.source.size <= fileSize else {
            let file = try input.copy(into: context.scratchFolder)
            return (.file(file), file.digest, try describe(.file(file)))
        }
        let data = try input.readAll()
        let facts = try describe(.memory(data.bytes))
        guard pixels(facts) <= self.pixels else {
            return (.file(try ScratchFile.holding(data.bytes, in: context.scratchFolder)), data.digest, facts)
        }
        return (.memory(data.bytes), data.digest, facts)
    }
}
