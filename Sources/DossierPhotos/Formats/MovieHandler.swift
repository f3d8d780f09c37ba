import DossierCore
import Foundation

/// Reads the movies a phone dump holds (MOV, MP4, M4V, 3GP): filed byte for byte under
/// `videos/<YYYY>/` (a Live Photo's movie beside its still: `LivePhotoPairing`), dated by their
/// own metadata, their turn left to players (turning a movie means re-encoding it) and reported
/// as `rotation`. Only the `moov` box is read; a movie of any size is copied into the library's
/// staging folder once, hashed on the way.
public struct MovieHandler: PhotoFormatHandler {
    public let name = "video"
    public let summary = "MOV, MP4, M4V and 3GP movies (recognised by their 'ftyp' brands), filed as they are"
    public let formats: [PhotoFormat] = [.quickTime, .mp4, .m4v, .threeGP]

    /// Movies held in memory up to this size; larger ones are copied to a scratch file.
    static let inMemorySize: Int64 = 64 << 20
    /// The largest movie filed: a phone's longest 4K recording is a few tens of GiB.
    public static let maximumSize: Int64 = 256 << 30

    public init() {}

    public func canRead(head: [UInt8]) -> Bool {
        ISOFileType(head: head)?.isMovie ?? false
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let content: PhotoContent
        let digest: ContentDigest
        if input.source.size <= MovieHandler.inMemorySize {
            let data = try input.readAll()
            (content, digest) = (.memory(data.bytes), data.digest)
        } else {
            let file = try input.copy(into: context.scratchFolder, limit: MovieHandler.maximumSize)
            (content, digest) = (.file(file), file.digest)
        }
        let facts: MovieFacts
        do {
            facts = try MovieFacts(reading: content.randomAccess)
        } catch {
            throw VideoError.unreadable(error)
        }
        guard facts.rotation != nil else {
            // No track with pictures: sound alone under a movie's brand (an M4A saved as .mp4, a
            // voice memo), which is not a video.
            throw NotImportable("an audio file (an MP4 or QuickTime file with no video track); audio is not filed yet")
        }
        let dated = MovieHandler.captureDate(facts, source: input.source, timeZone: context.timeZone)
        var video = Photo(source: input.source, format: MovieHandler.format(of: input.head), content: content,
                          sourceDigest: digest, orientation: .up, width: 0, height: 0, captureDate: dated.date,
                          exif: nil, isVerified: true, warnings: dated.warnings)
        video.rotation = facts.rotation ?? 0
        video.contentIdentifier = facts.contentIdentifier
        video.besideStill = LivePhotoPairing(context: context).stillPath(forMovie: input.source,
                                                                          identifier: facts.contentIdentifier, taken: dated.date)
        try sink.accept(.photo(video))
    }

    /// A movie's turn is its track matrix, which players honour: turning it means re-encoding.
    public func upright(_ photo: Photo) -> Photo {
        photo
    }

    /// The date: the QuickTime creation date (the camera's wall clock), else the `mvhd` time
    /// (UTC) on the library's wall clock, else a date in the file's name, else the file's mtime;
    /// one outside the years 1826 to next year is passed over, and with none left the time it was imported dates it. The warnings
    /// say when a date was passed over.
    static func captureDate(_ facts: MovieFacts, source: SourceFile, timeZone: TimeZone, importedAt now: Date = Date())
        -> (date: CaptureDate, warnings: [String])
    {
        var candidates: [CaptureDate] = []
        if let local = facts.quickTimeCreationDate {
            candidates.append(CaptureDate(local, origin: .quickTimeCreationDate, utcOffset: facts.quickTimeCreationOffset))
        }
        if let header = facts.movieHeaderCreation { candidates.append(CaptureDate(header, in: timeZone, origin: .movieHeader)) }
        if let named = FileNameDate.captureDate(in: source.fileName) { candidates.append(named) }
        candidates.append(CaptureDate(source.modificationDate, in: timeZone, origin: .fileModificationTime))
        return CaptureDate.mostTrusted(of: candidates, importedAt: now, in: timeZone)
    }

    /// The filed extension, from the brands: QuickTime, M4V, 3GP, else MP4.
    static func format(of head: [UInt8]) -> PhotoFormat {
        guard let type = ISOFileType(head: head) else { return .mp4 }
        if type.majorBrand == "qt  " { return .quickTime }
        if type.majorBrand.hasPrefix("M4V") { return .m4v }
        if type.majorBrand.hasPrefix("3g") { return .threeGP }
        return .mp4
    }
}
