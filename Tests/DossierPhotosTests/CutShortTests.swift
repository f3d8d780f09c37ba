import DossierCore
import DossierTestSupport
import Testing
@testable import DossierPhotos

/// `CutShort` reads each format by its own structure: a whole file reads whole, and a file cut
/// anywhere before its end is cut short, however its structure falls (a JPEG cut just after its
/// EXIF thumbnail's own end marker, a PNG cut between chunks).
@Suite("Whether a file reads whole, by its format's structure")
struct CutShortTests {
    static let picture = TestPicture.smooth(width: 64, height: 48)

    @Test("A JPEG reads whole to its end marker, with or without a video after it; every shorter prefix is cut short")
    func jpeg() throws {
        var exif = ExifFixture()
        exif.dateTimeOriginal = "2019:04:05 06:07:08"
        let thumbnail = try TestJPEG.encode(.smooth(width: 16, height: 12), hSamp: 1, vSamp: 1)
        exif.thumbnail = thumbnail
        let jpeg = try TestJPEG.encode(CutShortTests.picture, hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        #expect(CutShort.jpeg(jpeg) == nil)
        // A motion photo: its video after the end marker; the JPEG is whole without reading it.
        let motion = jpeg + TestMovie().bytes
        #expect(CutShort.jpeg(motion) == nil)
        for length in 2..<jpeg.count {
            #expect(CutShort.jpeg(Array(jpeg.prefix(length))) != nil, "cut at \(length) of \(jpeg.count)")
        }
        #expect(CutShort.jpeg(Array(jpeg.prefix(jpeg.count - 10)))
            == "cut short: it ends before its end marker (FF D9) (the file has \(jpeg.count - 10) bytes)")
        #expect(CutShort.jpeg(Array(jpeg.prefix(900))) == "cut short: its segment FF DB at byte 870 runs past its end (the file has 900 bytes)")
    }

    @Test("A PNG reads whole to its IEND chunk; every shorter prefix is cut short")
    func png() throws {
        let format = TestPNG.Format(colorType: 2, bitDepth: 8, interlaced: false)
        let png = try TestPNG.encode(TestPNG.samples(width: 40, height: 30, format: format), format: format)
        #expect(CutShort.png(png) == nil)
        for length in 8..<png.count {
            #expect(CutShort.png(Array(png.prefix(length))) != nil, "cut at \(length) of \(png.count)")
        }
    }

    @Test("A movie reads whole to its last box with its moov; cut inside a box, or before its moov, it is cut short")
    func movie() {
        var movie = TestMovie()
        movie.mediaBytes = 2000
        let bytes = movie.bytes
        #expect(CutShort.isoBoxes(bytes, index: "moov") == nil)
        let moovEnd = bytes.count - 2008
        for length in 8..<bytes.count where length != moovEnd {
            #expect(CutShort.isoBoxes(Array(bytes.prefix(length)), index: "moov") != nil, "cut at \(length)")
        }
        // Cut between boxes, after its moov: nothing in its structure tells.
        #expect(CutShort.isoBoxes(Array(bytes.prefix(moovEnd)), index: "moov") == nil)
    }

    @Test("A large file is walked where it lies, through a window, as the bytes in memory are")
    func throughAWindow() throws {
        let jpeg = try TestJPEG.encode(CutShortTests.picture, hSamp: 2, vSamp: 2)
        let cut = Array(jpeg.prefix(jpeg.count - 3))
        #expect(CutShort.jpeg(ReadAhead(cut, window: 7)) == CutShort.jpeg(cut))
        #expect(CutShort.jpeg(ReadAhead(jpeg, window: 7)) == nil)
    }

    @Test("A TIFF written directories last and cut in half is cut short by its directory; one whose strips run past its end by its strips")
    func tiff() {
        let pixels = (0..<(32 * 16 * 3)).map { UInt8(truncatingIfNeeded: $0 * 5) }
        let entries: ([Int]) -> [[TestTIFF.Entry]] = { offsets in
            [[.long(256, 32), .long(257, 16), .short(258, 8, 8, 8), .short(259, 1), .short(262, 2), .long(273, offsets[1]),
              .short(277, 3), .long(278, 16), .long(279, pixels.count), .short(284, 1)]]
        }
        let last = TestTIFF.file(ifdCount: 1, blobs: [pixels], directoriesLast: true, entries: entries)
        #expect(CutShort.tiff(last) == nil)
        let half = Array(last.prefix(last.count / 2))
        let directory = last[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(directory > half.count)
        #expect(CutShort.tiff(half) == "cut short: it ends before its directory at byte \(directory) (the file has \(half.count) bytes)")
        let first = TestTIFF.rgb(pixels: pixels, width: 32, height: 16)
        #expect(CutShort.tiff(first) == nil)
        #expect(CutShort.tiff(Array(first.prefix(first.count / 2)))
            == "cut short: its image data runs to byte \(first.count), the file has \(first.count / 2)")
    }

    @Test("A BMP whose header claims more pixels than an Int64 counts is cut short, not a crash")
    func hostileBMP() {
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        let header = Array("BM".utf8) + le(0, 4) + le(0, 4) + le(54, 4) + le(40, 4) + le(0x7FFF_FFFF, 4) + le(0x7FFF_FFFF, 4)
            + le(1, 2) + le(32, 2) + le(0, 4) + le(0, 4) + [UInt8](repeating: 0, count: 16)
        #expect(CutShort.bmp(header + [1, 2, 3])?.hasPrefix("cut short: its pixels run to byte") == true)
    }
}
