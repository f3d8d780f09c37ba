import DossierCore
import DossierTestSupport
import Foundation
import Logging
import Testing
@testable import DossierPhotos

@Suite("Live Photos: a movie finds its still")
struct LivePhotoPairingTests {
    let folder: TemporaryFolder
    let context: PipelineContext

    init() throws {
        folder = try TemporaryFolder()
        context = PipelineContext(logger: Logger(label: "test"), layout: LibraryLayout(root: folder.url.appendingPathComponent("Library")),
                                  routing: RoutingContext(requestedSubject: nil, existingSubjects: []),
                                  timeZone: TimeZone(identifier: "UTC")!)
    }

    static let identifier = "6F1C2A9E-4B7D-4E21-9C3A-0D5E8B7F6A21"

    /// A sideways iPhone-like JPEG still, with the content identifier in its Apple maker note.
    static func still(identifier: String?, seed: Int) throws -> [UInt8] {
        var exif = ExifFixture()
        exif.orientation = 6
        exif.make = "Apple"
        exif.dateTimeOriginal = "2024:02:29 08:15:\(String(format: "%02d", seed))"
        exif.makerNote = identifier.map { ExifFixture.appleMakerNote(contentIdentifier: $0) }
        return try TestJPEG.encode(TestPicture.smooth(width: 64 + seed * 16, height: 48), quality: 90, hSamp: 2, vSamp: 2,
                                   app1: exif.app1Payload)
    }

    /// When the movies say they were taken: the wall clock of their creation date.
    static let taken = CaptureDate(LocalDateTime(year: 2024, month: 2, day: 29, hour: 8, minute: 15, second: 1)!,
                                   origin: .quickTimeCreationDate, utcOffset: UTCOffset(minutes: 60))

    static func movie(identifier: String?) -> [UInt8] {
        var movie = TestMovie()
        movie.quickTimeMetadata = [("com.apple.quicktime.creationdate", "2024-02-29T08:15:01+0100")]
        if let identifier { movie.quickTimeMetadata.append(("com.apple.quicktime.content.identifier", identifier)) }
        return movie.bytes
    }

    /// Where filing puts the still: its upright bytes' digest and its date.
    func filedName(of still: [UInt8]) throws -> String {
        let upright = try PhotoFiling.upright(still)
        return context.layout.photoName(takenAt: upright.captureDate.dateTime, digest: upright.content.digest, format: .jpeg)
    }

    func source(_ relativePath: String) -> SourceFile {
        SourceFile(path: folder.path(relativePath), size: 0, modificationTime: 0)
    }

    @Test("The identifier reads from the still's Apple maker note")
    func makerNoteIdentifier() throws {
        let photo = try PhotoFiling.imported(try LivePhotoPairingTests.still(identifier: LivePhotoPairingTests.identifier, seed: 1))
        #expect(AppleMakerNote.contentIdentifier(inExif: try #require(photo.exif)) == LivePhotoPairingTests.identifier)
    }

    @Test("By name: IMG_0042.MOV goes with IMG_0042.JPG, filed beside it under the name the still is filed as")
    func pairsByName() throws {
        let still = try LivePhotoPairingTests.still(identifier: nil, seed: 1)
        try folder.write(still, to: "dump/IMG_0042.JPG")
        try folder.write(try LivePhotoPairingTests.still(identifier: nil, seed: 2), to: "dump/IMG_0043.JPG")
        try folder.write(LivePhotoPairingTests.movie(identifier: nil), to: "dump/IMG_0042.MOV")
        let paired = LivePhotoPairing(context: context).stillPath(forMovie: source("dump/IMG_0042.MOV"), identifier: nil,
                                                                  taken: LivePhotoPairingTests.taken)
        #expect(paired == (try filedName(of: still)))
        #expect(paired?.hasPrefix("photos/2024/2024-02-29_081501_") == true)
    }

    @Test("By identifier: a renamed still (IMG_E0042.JPG) is found by the identifier it shares with the movie")
    func pairsByIdentifier() throws {
        let still = try LivePhotoPairingTests.still(identifier: LivePhotoPairingTests.identifier, seed: 3)
        try folder.write(try LivePhotoPairingTests.still(identifier: "0A0B0C0D-0000-4000-8000-000000000000", seed: 4),
                         to: "dump/IMG_0041.JPG")
        try folder.write(still, to: "dump/IMG_E0042.JPG")
        let paired = LivePhotoPairing(context: context).stillPath(forMovie: source("dump/IMG_0042.MOV"),
                                                                  identifier: LivePhotoPairingTests.identifier,
                                                                  taken: LivePhotoPairingTests.taken)
        #expect(paired == (try filedName(of: still)))
    }

    @Test("Several movies in one folder each find their own renamed still (the folder's identifiers read once)")
    func severalByIdentifier() throws {
        let identifiers = ["11111111-2222-4333-8444-555555555555", "66666666-7777-4888-9999-AAAAAAAAAAAA"]
        let stills = try identifiers.enumerated().map { index, id in
            try LivePhotoPairingTests.still(identifier: id, seed: 6 + index)
        }
        for (index, still) in stills.enumerated() { try folder.write(still, to: "dump/IMG_E00\(50 + index).JPG") }
        let pairing = LivePhotoPairing(context: context)
        for (index, id) in identifiers.enumerated() {
            let paired = pairing.stillPath(forMovie: source("dump/IMG_00\(50 + index).MOV"), identifier: id,
                                           taken: LivePhotoPairingTests.taken)
            #expect(paired == (try filedName(of: stills[index])))
        }
    }

    @Test("A still of the same name whose identifier differs is not the movie's; a movie alone has no still")
    func mismatchedIdentifier() throws {
        try folder.write(try LivePhotoPairingTests.still(identifier: "0A0B0C0D-0000-4000-8000-000000000000", seed: 5),
                         to: "dump/IMG_0042.HEIC.jpg")
        try folder.write(try LivePhotoPairingTests.still(identifier: "0A0B0C0D-0000-4000-8000-000000000000", seed: 5),
                         to: "dump/IMG_0042.JPG")
        let pairing = LivePhotoPairing(context: context)
        #expect(pairing.stillPath(forMovie: source("dump/IMG_0042.MOV"), identifier: LivePhotoPairingTests.identifier,
                                  taken: LivePhotoPairingTests.taken) == nil)
        #expect(pairing.stillPath(forMovie: source("dump/IMG_9999.MOV"), identifier: nil, taken: LivePhotoPairingTests.taken) == nil)
    }

    @Test("By name only when both say they were taken within seconds: the same name an hour apart, or a movie with no date, is no pair")
    func nameAloneIsNotEnough() throws {
        try folder.write(try LivePhotoPairingTests.still(identifier: nil, seed: 1), to: "dump/IMG_0042.JPG")
        let pairing = LivePhotoPairing(context: context)
        let hourLater = CaptureDate(LocalDateTime(year: 2024, month: 2, day: 29, hour: 9, minute: 15, second: 1)!,
                                    origin: .quickTimeCreationDate)
        #expect(pairing.stillPath(forMovie: source("dump/IMG_0042.MOV"), identifier: nil, taken: hourLater) == nil)
        let sixSecondsLater = CaptureDate(LocalDateTime(year: 2024, month: 2, day: 29, hour: 8, minute: 15, second: 7)!,
                                          origin: .quickTimeCreationDate)
        #expect(pairing.stillPath(forMovie: source("dump/IMG_0042.MOV"), identifier: nil, taken: sixSecondsLater) == nil)
        let fiveSecondsLater = CaptureDate(LocalDateTime(year: 2024, month: 2, day: 29, hour: 8, minute: 15, second: 6)!,
                                           origin: .quickTimeCreationDate)
        #expect(pairing.stillPath(forMovie: source("dump/IMG_0042.MOV"), identifier: nil, taken: fiveSecondsLater) != nil)
    }

    @Test("Taken within seconds means as instants when both know their offset: 09:15+09:00 and 09:15-05:00 are 14 hours apart")
    func instantsWhenOffsetsAreKnown() throws {
        let still = CaptureDate(LocalDateTime(year: 2023, month: 5, day: 1, hour: 9, minute: 15)!, origin: .exifDateTimeOriginal,
                                utcOffset: UTCOffset(minutes: 540))
        let sameClockElsewhere = CaptureDate(LocalDateTime(year: 2023, month: 5, day: 1, hour: 9, minute: 15, second: 2)!,
                                             origin: .quickTimeCreationDate, utcOffset: UTCOffset(minutes: -300))
        #expect(!still.isWithin(CaptureDate.livePhotoWindow, of: sameClockElsewhere))
        let sameInstantInUTC = CaptureDate(LocalDateTime(year: 2023, month: 5, day: 1, hour: 0, minute: 15, second: 2)!,
                                           origin: .movieHeader, utcOffset: UTCOffset(minutes: 0))
        #expect(still.isWithin(CaptureDate.livePhotoWindow, of: sameInstantInUTC))
        let noOffset = CaptureDate(LocalDateTime(year: 2023, month: 5, day: 1, hour: 9, minute: 15, second: 3)!,
                                   origin: .quickTimeCreationDate)
        #expect(still.isWithin(CaptureDate.livePhotoWindow, of: noOffset))
    }
}
