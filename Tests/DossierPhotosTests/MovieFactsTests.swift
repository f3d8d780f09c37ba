import DossierCore
import DossierTestSupport
import Foundation
import Testing
@testable import DossierPhotos

@Suite("Movies: boxes, dates and turns")
struct MovieFactsTests {
    static let january = TestMovie.quickTimeSeconds(Date(timeIntervalSince1970: 1_705_124_333))  // 2024-01-13 05:38:53 UTC

    @Test("The QuickTime creation date is read as the camera's wall clock, offset and all")
    func quickTimeCreationDate() throws {
        var movie = TestMovie()
        movie.movieHeaderCreation = MovieFactsTests.january
        movie.quickTimeMetadata = [("com.apple.quicktime.make", "Apple"),
                                   ("com.apple.quicktime.creationdate", "2024-01-12T21:38:53-0800")]
        let facts = try MovieFacts(reading: movie.bytes)
        #expect(facts.quickTimeCreationDate == LocalDateTime(year: 2024, month: 1, day: 12, hour: 21, minute: 38, second: 53))
        let date = MovieHandler.captureDate(facts, source: MovieFactsTests.source, timeZone: TimeZone(identifier: "UTC")!).date
        #expect(date.origin == .quickTimeCreationDate)
        #expect(date.iso8601 == "2024-01-12T21:38:53-08:00")
    }

    @Test("The creation date's offset is read in each form writers use; a date without one has none", arguments: [
        ("2024-01-12T21:38:53-0800", "2024-01-12T21:38:53-08:00"),
        ("2023-07-04T18:02:11+02:00", "2023-07-04T18:02:11+02:00"),
        ("2023-07-04T18:02:11.250Z", "2023-07-04T18:02:11+00:00"),
        ("2023-07-04T18:02:11+0545", "2023-07-04T18:02:11+05:45"),
        ("2023-07-04T18:02:11", "2023-07-04T18:02:11"),
        ("2023-07-04T18:02:11+2x00", "2023-07-04T18:02:11"),
        ("2023-07-04T18:02:11+19:00", "2023-07-04T18:02:11"),
    ])
    func creationDateOffsets(_ text: String, _ expected: String) throws {
        var movie = TestMovie()
        movie.quickTimeMetadata = [("com.apple.quicktime.creationdate", text)]
        let facts = try MovieFacts(reading: movie.bytes)
        let date = MovieHandler.captureDate(facts, source: MovieFactsTests.source, timeZone: TimeZone(identifier: "Asia/Tokyo")!).date
        #expect(date.origin == .quickTimeCreationDate)
        #expect(date.iso8601 == expected)
    }

    @Test("Without it, the mvhd time (UTC) is shown on the library's wall clock; 64-bit times too", arguments: [false, true])
    func movieHeaderTime(version1: Bool) throws {
        var movie = TestMovie()
        movie.majorBrand = "isom"
        movie.compatibleBrands = ["isom", "mp42"]
        movie.version1 = version1
        movie.movieHeaderCreation = MovieFactsTests.january
        let facts = try MovieFacts(reading: movie.bytes)
        let tokyo = MovieHandler.captureDate(facts, source: MovieFactsTests.source, timeZone: TimeZone(identifier: "Asia/Tokyo")!).date
        #expect(tokyo == CaptureDate(LocalDateTime(year: 2024, month: 1, day: 13, hour: 14, minute: 38, second: 53)!,
                                     origin: .movieHeader, utcOffset: UTCOffset(minutes: 9 * 60)))
        #expect(tokyo.iso8601 == "2024-01-13T14:38:53+09:00")
    }

    @Test("A zero (1904) creation time counts as none: the file's mtime dates it")
    func zeroCreationTime() throws {
        let facts = try MovieFacts(reading: TestMovie().bytes)
        #expect(facts.movieHeaderCreation == nil)
        let date = MovieHandler.captureDate(facts, source: MovieFactsTests.source, timeZone: TimeZone(identifier: "UTC")!).date
        #expect(date == CaptureDate(LocalDateTime(year: 2023, month: 11, day: 14, hour: 22, minute: 13, second: 20)!,
                                    origin: .fileModificationTime, utcOffset: UTCOffset(minutes: 0)))
    }

    @Test("How long a movie plays is its header's duration over its time scale, in 32- and 64-bit headers", arguments: [false, true])
    func duration(version1: Bool) throws {
        var movie = TestMovie()
        movie.version1 = version1
        movie.durationUnits = 4_444
        #expect(try MovieFacts(reading: movie.bytes).duration == 4_444.0 / 600)
        movie.durationUnits = 0
        #expect(try MovieFacts(reading: movie.bytes).duration == nil)
    }

    @Test("A length is written as players write it, rounded to the second")
    func lengthText() {
        #expect(VideoLength.text(7.4) == "0:07")
        #expect(VideoLength.text(59.6) == "1:00")
        #expect(VideoLength.text(272) == "4:32")
        #expect(VideoLength.text(3_729) == "1:02:09")
    }

    @Test("The video track's matrix gives its turn; the sound track's is not read", arguments: [0, 90, 180, 270])
    func rotation(_ degrees: Int) throws {
        var movie = TestMovie()
        movie.rotation = degrees
        #expect(try MovieFacts(reading: movie.bytes).rotation == degrees)
    }

    @Test("Metadata in moov/udta/meta (a full box, as MP4 writers put it) is read too, with the Live Photo identifier")
    func userDataMetadata() throws {
        var movie = TestMovie()
        movie.metadataInUserData = true
        movie.quickTimeMetadata = [("com.apple.quicktime.content.identifier", "9D3E4F0A-1B2C-4D5E-8F90-A1B2C3D4E5F6"),
                                   ("com.apple.quicktime.creationdate", "2023-07-04T18:02:11+0200")]
        let facts = try MovieFacts(reading: movie.bytes)
        #expect(facts.contentIdentifier == "9D3E4F0A-1B2C-4D5E-8F90-A1B2C3D4E5F6")
        #expect(facts.quickTimeCreationDate == LocalDateTime(year: 2023, month: 7, day: 4, hour: 18, minute: 2, second: 11))
    }

    @Test("A movie cut off anywhere is refused with a reason, never read past its end")
    func truncated() throws {
        var movie = TestMovie()
        movie.quickTimeMetadata = [("com.apple.quicktime.creationdate", "2024-01-12T21:38:53-0800")]
        let bytes = movie.bytes
        let moovEnd = try #require(try ISOBoxReader(bytes).topLevel().first { $0.type == "moov" }).end
        for length in stride(from: 9, to: Int(moovEnd), by: 7) {
            #expect(throws: ContainerError.self, "cut at \(length)") { try MovieFacts(reading: Array(bytes.prefix(length))) }
        }
    }

    @Test("Bytes a phone appends after the last box (Samsung's SEFT trailer) are not read as boxes")
    func trailerAfterTheBoxes() throws {
        var movie = TestMovie()
        movie.rotation = 270
        // A SEF data block (marker 0x0A30, a little-endian name length, the name, its data), then
        // the SEFH directory and the SEFT signature that end the file.
        let block = [0x00, 0x00, 0x30, 0x0A] + [16, 0, 0, 0] + Array("MotionPhoto_Data".utf8) + [UInt8](repeating: 0x5A, count: 64)
        let directory = Array("SEFH".utf8) + [0x6B, 0, 0, 0, 1, 0, 0, 0] + [0, 0, 0x30, 0x0A] + [88, 0, 0, 0, 88, 0, 0, 0]
        let trailer = block + directory + [UInt8(directory.count), 0, 0, 0] + Array("SEFT".utf8)
        let facts = try MovieFacts(reading: movie.bytes + trailer)
        #expect(facts.rotation == 270)
    }

    @Test("Hostile boxes: smaller than a header, 64-bit beyond the file, 70,000 side by side, nested past the depth limit")
    func hostileBoxes() throws {
        let ftyp = TestMovie.box("ftyp", Array("qt  ".utf8) + [0, 0, 0, 0])
        #expect(throws: ContainerError.malformed("'moov' at byte 16 claims 4 bytes, less than its header")) {
            try ISOBoxReader(ftyp + [0, 0, 0, 4] + Array("moov".utf8)).topLevel()
        }
        let huge: [UInt8] = [0, 0, 0, 1] + Array("mdat".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: ContainerError.truncated(at: 16)) { try ISOBoxReader(ftyp + huge).topLevel() }
        let crowded = TestMovie.box("moov", [UInt8]((0..<70_000).flatMap { _ in TestMovie.box("free", []) }))
        #expect(throws: ContainerError.malformed("more than 65536 boxes side by side")) {
            try MovieFacts(reading: ftyp + crowded)
        }
        var nested = TestMovie.box("free", [])
        for _ in 0..<40 { nested = TestMovie.box("moov", nested) }
        let reader = ISOBoxReader(nested)
        var box = try #require(try reader.topLevel().first)
        #expect(throws: ContainerError.tooDeep(ISOBoxReader.maximumDepth)) {
            for depth in 1...40 { box = try #require(try reader.children(of: box, depth: depth).first) }
        }
    }

    @Test("Brands tell movies from HEIF and from sound", arguments: [
        (["qt  "], true, false), (["isom", "mp42"], true, false), (["3gp4", "isom"], true, false),
        (["M4V ", "M4V ", "mp42", "isom"], true, false), (["heic", "mif1", "heic"], false, true),
        (["msf1", "hevc", "iso8"], false, true), (["M4A ", "isom"], false, false),
    ])
    func brands(_ brands: [String], _ movie: Bool, _ heif: Bool) throws {
        let head = TestMovie.box("ftyp", Array(brands[0].utf8) + [0, 0, 0, 0] + brands.dropFirst().flatMap { Array($0.utf8) })
        let type = try #require(ISOFileType(head: head + [UInt8](repeating: 0, count: 64)))
        #expect(type.isMovie == movie)
        #expect(type.isHEIF == heif)
    }

    static let source = SourceFile(path: "/dump/IMG_0042.MOV", size: 0, modificationTime: 1_700_000_000_000_000_000)
}
