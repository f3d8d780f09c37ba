import DossierCore
import Foundation
import Testing
@testable import DossierPhotos

/// A photo too large to hold in memory is copied to a scratch file and turned from it into
/// another, its coefficients or pixels kept in mapped scratch files. Nothing of the result may
/// depend on which way a photo went: every case here is turned both ways and compared byte for
/// byte (small pictures, taken as large by a plugin whose limits are zero).
@Suite("Large photos, turned through scratch files")
struct LargePhotoTests {
    static let orientations = Array(1...8)

    func bothWays(_ source: [UInt8]) throws -> (inMemory: Photo, throughFiles: Photo) {
        let inMemory = try PhotoFiling.upright(source)
        let throughFiles = try PhotoFiling.upright(source, asLarge: true)
        if case .memory = inMemory.content {} else { Issue.record("an everyday photo left memory") }
        guard case .file(let file) = throughFiles.content else {
            Issue.record("a large photo was held in memory")
            return (inMemory, throughFiles)
        }
        #expect(file.size == Int64(throughFiles.bytes.count))
        #expect(file.digest == ContentDigest(of: throughFiles.bytes))
        #expect(throughFiles.sourceDigest == ContentDigest(of: source))
        return (inMemory, throughFiles)
    }

    @Test("A JPEG turned on the coefficient path comes out the same through files, for every orientation",
          arguments: orientations)
    func losslessJPEG(orientation: Int) throws {
        var exif = ExifFixture()
        exif.orientation = orientation
        let thumbnail = try TestJPEG.encode(.smooth(width: 40, height: 24), hSamp: 2, vSamp: 2)
        exif.thumbnail = thumbnail
        let source = try TestJPEG.encode(.smooth(width: 96, height: 64), hSamp: 2, vSamp: 1, app1: exif.app1Payload)
        let (inMemory, throughFiles) = try bothWays(source)
        #expect(throughFiles.bytes == inMemory.bytes)
        #expect(ExifInspector(jpeg: throughFiles.bytes)?.orientation == 1)
    }

    @Test("A JPEG turned on the pixel path (not whole MCUs) comes out the same through files",
          arguments: orientations)
    func pixelPathJPEG(orientation: Int) throws {
        var exif = ExifFixture()
        exif.orientation = orientation
        let source = try TestJPEG.encode(.smooth(width: 61, height: 45), hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        let (inMemory, throughFiles) = try bothWays(source)
        #expect(throughFiles.bytes == inMemory.bytes)
        let picture = try TestJPEG.decode(throughFiles.bytes)
        let swaps = orientation >= 5
        #expect((picture.width, picture.height) == (swaps ? 45 : 61, swaps ? 61 : 45))
    }

    @Test("A JPEG whose Orientation tag is bogus keeps its pixels' bytes and gets the tag 1, through files too")
    func bogusOrientationIsRewrittenInPlace() throws {
        var exif = ExifFixture()
        exif.orientation = 0
        let source = try TestJPEG.encode(.smooth(width: 64, height: 48), hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        let (inMemory, throughFiles) = try bothWays(source)
        #expect(throughFiles.bytes == inMemory.bytes)
        #expect(ExifInspector(jpeg: throughFiles.bytes)?.orientation == 1)
        #expect(throughFiles.bytes.count == source.count)
    }

    @Test("What follows a JPEG's end (a motion photo's video) follows the turned picture, both ways",
          arguments: [1, 6])
    func trailingBytesAreCarried(orientation: Int) throws {
        var exif = ExifFixture()
        exif.orientation = orientation
        let picture = try TestJPEG.encode(.smooth(width: 64, height: 48), hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        // Past the EOI: bytes that look like markers must not end the copy early.
        let video: [UInt8] = [0, 0, 0, 24] + Array("ftypmp42".utf8) + [0xFF, 0xD9, 0xFF, 0xD8] + (0..<70_000).map { UInt8($0 % 251) }
        let (inMemory, throughFiles) = try bothWays(picture + video)
        #expect(throughFiles.bytes == inMemory.bytes)
        #expect(Array(throughFiles.bytes.suffix(video.count)) == video)
        #expect(try JPEGCodec.info(Array(throughFiles.bytes.dropLast(video.count))).width == (orientation == 6 ? 48 : 64))
    }

    @Test("A truncated large JPEG is filed as it is through files, damaged; one cut in its header fails; neither leaves a scratch file")
    func truncatedJPEGFails() throws {
        var exif = ExifFixture()
        exif.orientation = 6
        let source = try TestJPEG.encode(.smooth(width: 64, height: 48), hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-large-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: library) }
        let layout = LibraryLayout(root: library)
        try FileManager.default.createDirectory(at: layout.stagingFolder, withIntermediateDirectories: true)
        do {
            let truncated = Array(source.dropLast(200))
            let photo = try PhotoFiling.upright(truncated, asLarge: true, scratchFolder: .staging(of: layout))
            #expect(photo.damage == "Premature end of JPEG file")
            #expect(photo.content.digest == ContentDigest(of: truncated))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: layout.stagingFolder.path) == [])
        let scan = try #require(JPEGSegments.firstScan(in: source))
        #expect(throws: PhotoError.self) {
            try PhotoFiling.upright(Array(source.prefix(scan - 10)), asLarge: true, scratchFolder: .staging(of: layout))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: layout.stagingFolder.path) == [])
    }

    @Test("A PNG turned through files comes out the same, for every orientation and layout",
          arguments: orientations, [TestPNG.Format(colorType: 6, bitDepth: 16, interlaced: false),
                                    TestPNG.Format(colorType: 2, bitDepth: 8, interlaced: true),
                                    TestPNG.Format(colorType: 0, bitDepth: 1, interlaced: false)])
    func png(orientation: Int, format: TestPNG.Format) throws {
        var exif = ExifFixture()
        exif.orientation = orientation
        let picture = TestPNG.samples(width: 37, height: 23, format: format)
        let source = try TestPNG.encode(picture, format: format, exif: exif.tiff)
        let (inMemory, throughFiles) = try bothWays(source)
        #expect(throughFiles.bytes == inMemory.bytes)
        #expect(try TestPNG.decode(throughFiles.bytes).picture == TestPNG.decode(inMemory.bytes).picture)
    }
}
