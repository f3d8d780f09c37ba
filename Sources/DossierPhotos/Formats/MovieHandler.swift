import DossierCore
import Foundation

/// Reads the movies a phone dump holds (MOV, MP4, M4V, 3GP): filed byte for byte under
/// `videos/<YYYY>/` (a Live Photo's movie beside its still: `LivePhotoPairing`), dated by their
/// own metadata, their turn left to players (turning a movie means re-encoding it) and reported
/// as `rotation`. Only the `moov` box is read; a movie of any size is copied into the library's
/// staging folder once, hashed on the way.
public struct MovieHandler: PhotoFormatHandler {
    public let name = "video"
    public let summary = "MOV, MP4, M4V and 3GP movies (recognised by their 'ftyp' brands, or QuickTime's first boxes), "
        + "filed as they are; one with no video track is audio"
    public let formats: [PhotoFormat] = [.quickTime, .mp4, .m4v, .threeGP, .m4a]


    public init() {}

    public func canRead(head: [UInt8]) -> Bool {
        guard let type = ISOFileType(head: head) else { return MovieHandler.isQuickTimeWithoutFileType(head) }
        return type.isMovie || ISOFileType.soundBrands.contains(type.majorBrand)
    }

    /// Older cameras' QuickTime movies start with no `ftyp` box: straight with `moov`, `mdat`, or
    /// a `wide`, `free`, `skip` or `pnot` box before them (a plausible size, then the type).
    static func isQuickTimeWithoutFileType(_ head: [UInt8]) -> Bool {
        guard head.count >= 16 else { return false }
        let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let type = String(decoding: head[4..<8], as: UTF8.self)
        guard ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(type), size == 1 || size >= 8 else { return false }
        // The box after a small first one must be a QuickTime box too.
        guard size >= 8, size + 8 <= head.count else { return size == 1 || type == "mdat" || type == "moov" }
        let next = String(decoding: head[(size + 4)..<(size + 8)], as: UTF8.self)
        return ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(next)
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let (content, digest) = try WholeFileContent.read(input, context: context)
        let facts: MovieFacts
        do {
            facts = try MovieFacts(reading: content.randomAccess)
        } catch {
            throw VideoError.unreadable(error)
        }
        guard facts.tracks > 0 else { throw VideoError.noTracks }
        let dated = MovieHandler.captureDate(facts, source: input.source, timeZone: context.timeZone)
        // No track with pictures: sound alone under a movie's brand (a voice memo, an M4A saved
        // as .mp4), filed as audio.
        let format = facts.rotation == nil ? PhotoFormat.m4a : MovieHandler.format(of: input.head)
        var video = Photo(source: input.source, format: format, content: content,
                          sourceDigest: digest, orientation: .up, width: 0, height: 0, captureDate: dated.date,
                          exif: nil, isVerified: true, warnings: dated.warnings, contentDigest: digest)
        video.rotation = facts.rotation ?? 0
        video.contentIdentifier = facts.contentIdentifier
        let still = LivePhotoPairing(context: context).still(forMovie: input.source, identifier: facts.contentIdentifier,
                                                              taken: dated.date)
        video.besideStill = still?.path
        video.stillIsInRun = still?.inRun ?? false
        try sink.accept(.photo(video))
    }

    /// Whether its boxes run whole to the last, its `moov` (written last by a recording) among
    /// them (`CutShort.isoBoxes`).
    public func cutShort(_ input: SourceInput) -> String? {
        input.cutShort { CutShort.isoBoxes($0, index: "moov") }
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
        guard let type = ISOFileType(head: head) else { return .quickTime }
        if ISOFileType.soundBrands.contains(type.majorBrand) { return .m4a }
        if type.majorBrand == "qt  " { return .quickTime }
        if type.majorBrand.hasPrefix("M4V") { return .m4v }
        if type.majorBrand.hasPrefix("3g") { return .threeGP }
        return .mp4
    }
}
