import DossierCore
import DossierTestSupport
import Foundation
import Testing
@testable import DossierPhotos

@Suite("PNG images are filed upright with their format and chunks kept")
struct PNGOrientationTests {
    static let formats = [
        TestPNG.Format(colorType: 2, bitDepth: 8, interlaced: false),
        TestPNG.Format(colorType: 6, bitDepth: 16, interlaced: false),
        TestPNG.Format(colorType: 0, bitDepth: 1, interlaced: false),
        TestPNG.Format(colorType: 0, bitDepth: 4, interlaced: true),
        TestPNG.Format(colorType: 3, bitDepth: 4, interlaced: false),
        TestPNG.Format(colorType: 4, bitDepth: 8, interlaced: false),
        TestPNG.Format(colorType: 2, bitDepth: 16, interlaced: true),
    ]

    static let palette: [UInt8] = (0..<12).flatMap { (entry: Int) -> [UInt8] in
        [UInt8(entry * 20), UInt8(255 - entry * 20), UInt8(entry * 7)]
    }

    @Test("Every orientation turns the samples exactly and keeps bit depth, colour type, interlacing and text",
          arguments: 2...8, formats)
    func turnsSamplesExactly(orientation: Int, format: TestPNG.Format) throws {
        let picture = TestPNG.samples(width: 13, height: 7, format: format, paletteEntries: 12)
        var exif = ExifFixture()
        exif.orientation = orientation
        exif.pixelSize = (13, 7)
        let source = try TestPNG.encode(picture, format: format, palette: format.colorType == 3 ? PNGOrientationTests.palette : nil,
                                        exif: exif.tiff, text: ("Title", "Leo on the rock"))
        let photo = try PhotoFiling.upright(source)
        let (filed, info) = try TestPNG.decode(photo.bytes)
        #expect(filed == picture.turnedUpright(for: orientation))
        #expect(Int(info.bit_depth) == format.bitDepth)
        #expect(Int(info.color_type) == format.colorType)
        #expect((info.interlaced != 0) == format.interlaced)
        #expect(TestPNG.containsChunk("tEXt", containing: Array("Leo on the rock".utf8), in: photo.bytes))
        if format.colorType == 3 {
            #expect(TestPNG.containsChunk("PLTE", containing: PNGOrientationTests.palette, in: photo.bytes))
        }
        let filedExif = try #require(PNGCodec.inspect(photo.bytes).exif)
        let inspector = try #require(ExifInspector(app1Payload: Array("Exif".utf8) + [0, 0] + filedExif))
        #expect(inspector.orientation == 1)
        #expect(inspector.dateTimeOriginal == "2023:05:07 14:30:09")
        #expect(inspector.pixelXDimension == (orientation >= 5 ? 7 : 13))
        #expect((photo.width, photo.height) == (orientation >= 5 ? (7, 13) : (13, 7)))
    }

    @Test("A PNG without EXIF is filed byte for byte, dated by its mtime")
    func untaggedPNGsAreUntouched() throws {
        let format = TestPNG.formats[0]
        let source = try TestPNG.encode(TestPNG.samples(width: 5, height: 4, format: format), format: format)
        let photo = try PhotoFiling.upright(source)
        #expect(photo.bytes == source)
        #expect(photo.captureDate.origin == .fileModificationTime)
    }

    @Test("A PNG's tIME chunk (UTC) dates it, in this machine's wall-clock time")
    func pngTimeDatesThePhoto() throws {
        let drawing = DossierSamples.url("children/mina/drawing.png")
        let photo = try PhotoFiling.imported(Array(try Data(contentsOf: drawing)))
        let utc = try #require(LocalDateTime(year: 2024, month: 5, day: 21, hour: 9, minute: 30, second: 0))
        #expect(photo.captureDate == CaptureDate(utc.date(in: TimeZone(identifier: "UTC")!), in: .current, origin: .pngTime))
    }

    @Test("A PNG with a bogus orientation keeps its pixels and has the tag reset to 1")
    func bogusOrientation() throws {
        let format = TestPNG.formats[0]
        var exif = ExifFixture()
        exif.orientation = 0
        let picture = TestPNG.samples(width: 5, height: 4, format: format)
        let photo = try PhotoFiling.upright(try TestPNG.encode(picture, format: format, exif: exif.tiff))
        #expect(try TestPNG.decode(photo.bytes).picture == picture)
        let filedExif = try #require(PNGCodec.inspect(photo.bytes).exif)
        #expect(ExifInspector(app1Payload: Array("Exif".utf8) + [0, 0] + filedExif)?.orientation == 1)
    }

    @Test("A PNG whose data ends early but whose first rows decode is filed byte for byte, damaged, never turned")
    func endsEarlyButDecodes() throws {
        // Noise hardly compresses, so half the file is about half the rows.
        var generator = TestSeed().generator
        let noise = TestPicture(width: 64, height: 48, channels: 3,
                                pixels: (0..<(64 * 48 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let format = TestPNG.Format(colorType: 2, bitDepth: 8, interlaced: false)
        var exif = ExifFixture()
        exif.orientation = 6
        exif.bigEndian = false
        let whole = try TestPNG.encode(noise, format: format, exif: exif.tiff)
        let cut = Array(whole.prefix(whole.count / 2))
        let photo = try PhotoFiling.upright(cut, path: "/dump/screenshot.png")
        #expect(photo.format == .png)
        #expect(photo.content.digest == ContentDigest(of: cut))
        let damage = try #require(photo.damage)
        let match = try #require(damage.firstMatch(of: /ends early: (\d+) of its 48 rows decode/))
        let rows = try #require(Int(match.1))
        // Each row is a filter byte and 192 bytes of noise, which deflate cannot shrink: the rows
        // whose data is in the cut file, all of them and none more (give or take the one cut).
        let imageData = try #require(whole.firstRange(of: Array("IDAT".utf8))).upperBound
        let expected = (cut.count - imageData) / (1 + 64 * 3)
        #expect(abs(rows - expected) <= 1, "\(damage), about \(expected) expected")
        #expect(photo.warnings.last == "damaged (\(damage)), but it decodes: filed byte for byte as it is")
        // Interlaced, it ends in one of its seven passes.
        let interlaced = TestPNG.Format(colorType: 2, bitDepth: 8, interlaced: true)
        let wholeInterlaced = try TestPNG.encode(noise, format: interlaced)
        let cutInterlaced = try PhotoFiling.upright(Array(wholeInterlaced.prefix(wholeInterlaced.count * 3 / 4)), path: "/dump/i.png")
        #expect(cutInterlaced.damage?.hasPrefix("its data ends early, in interlace pass ") == true, "\(cutInterlaced.damage ?? "")")
    }

    @Test("A PNG too large for memory, read through a scratch file, whose data ends early is filed byte for byte, damaged, like a small one")
    func largeEndsEarlyButDecodes() throws {
        var generator = TestSeed().generator
        let noise = TestPicture(width: 64, height: 48, channels: 3,
                                pixels: (0..<(64 * 48 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let format = TestPNG.Format(colorType: 2, bitDepth: 8, interlaced: false)
        let whole = try TestPNG.encode(noise, format: format)
        let cut = Array(whole.prefix(whole.count / 2))
        let photo = try PhotoFiling.upright(cut, path: "/dump/scan.png", asLarge: true)
        guard case .file(let file) = photo.content else {
            Issue.record("read into memory, not through a scratch file")
            return
        }
        #expect(file.digest == ContentDigest(of: cut))
        let filed = try file.withOpenFile { descriptor in
            var bytes = [UInt8](repeating: 0, count: cut.count + 1)
            let count = pread(descriptor, &bytes, bytes.count, 0)
            return Array(bytes.prefix(max(count, 0)))
        }
        #expect(filed.count == cut.count)
        #expect(ContentDigest(of: filed) == ContentDigest(of: cut))
        let damage = try #require(photo.damage)
        #expect(damage.firstMatch(of: /^its data ends early: \d+ of its 48 rows decode$/) != nil, "\(damage)")
        #expect(photo.warnings.last == "damaged (\(damage)), but it decodes: filed byte for byte as it is")
        // A large one cut before any row decodes still fails.
        #expect(throws: PhotoError.self) { try PhotoFiling.upright(Array(whole.prefix(60)), path: "/dump/a.png", asLarge: true) }
    }

    @Test("A PNG cut before any row decodes, or one whose only fault is a bad CRC, still fails with libpng's reason")
    func otherDamageStillFails() throws {
        let format = TestPNG.Format(colorType: 2, bitDepth: 8, interlaced: false)
        let whole = try TestPNG.encode(TestPNG.samples(width: 64, height: 48, format: format), format: format)
        #expect(throws: PhotoError.self) { try PhotoFiling.upright(Array(whole.prefix(60)), path: "/dump/a.png") }
        var badCRC = whole
        badCRC[badCRC.count - 20] ^= 0x01
        #expect(throws: PhotoError.self) { try PhotoFiling.upright(badCRC, path: "/dump/b.png") }
    }
}

extension TestPNG {
    static let formats = PNGOrientationTests.formats
}
