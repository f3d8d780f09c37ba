import DossierCore
import Testing
@testable import DossierPhotos

@Suite("JPEG photos are filed upright")
struct JPEGOrientationTests {
    struct Sampling: CustomTestStringConvertible, Sendable {
        let name: String
        let h: Int
        let v: Int
        var mcuWidth: Int { h * 8 }
        var mcuHeight: Int { v * 8 }
        var testDescription: String { name }
    }

    static let samplings = [Sampling(name: "4:2:0", h: 2, v: 2), Sampling(name: "4:2:2", h: 2, v: 1),
                            Sampling(name: "4:4:4", h: 1, v: 1)]

    /// Which edges a turn moves must be whole MCUs for the coefficient path (jpegtran's rules).
    static func isLossless(_ orientation: Int, width: Int, height: Int, _ sampling: Sampling) -> Bool {
        let wholeWidth = width % sampling.mcuWidth == 0
        let wholeHeight = height % sampling.mcuHeight == 0
        switch orientation {
        case 2, 8: return wholeWidth
        case 4, 6: return wholeHeight
        case 3, 7: return wholeWidth && wholeHeight
        default: return true
        }
    }

    func stored(width: Int, height: Int, orientation: Int, sampling: Sampling,
                thumbnail: [UInt8]? = nil) throws -> [UInt8] {
        var exif = ExifFixture()
        exif.orientation = orientation
        exif.pixelSize = (width, height)
        exif.thumbnail = thumbnail
        return try TestJPEG.encode(.smooth(width: width, height: height), hSamp: sampling.h, vSamp: sampling.v,
                                   app1: exif.app1Payload)
    }

    @Test("Every orientation of MCU-aligned JPEGs turns losslessly: the coefficients are the source's, moved",
          arguments: 1...8, samplings)
    func alignedTurnsAreLossless(orientation: Int, sampling: Sampling) throws {
        let source = try stored(width: 96, height: 64, orientation: orientation, sampling: sampling)
        let photo = try PhotoFiling.upright(source)
        let expected = TestJPEG.expectedLosslessTurn(of: try TestJPEG.coefficients(source), orientation: orientation)
        let filed = try TestJPEG.coefficients(photo.bytes)
        #expect(filed.components.count == 3)
        for (got, want) in zip(filed.components, expected.components) {
            #expect(got.widthInBlocks == want.widthInBlocks)
            #expect(got.heightInBlocks == want.heightInBlocks)
            #expect(got.quant == want.quant)
            #expect(got.blocks == want.blocks)
        }
        try expectUpright(photo, source: source, orientation: orientation, width: 96, height: 64)
    }

    @Test("Every orientation of JPEGs that are not whole MCUs is turned exactly, nothing trimmed",
          arguments: 1...8, samplings)
    func unalignedTurnsAreExact(orientation: Int, sampling: Sampling) throws {
        let source = try stored(width: 101, height: 67, orientation: orientation, sampling: sampling)
        let photo = try PhotoFiling.upright(source)
        if JPEGOrientationTests.isLossless(orientation, width: 101, height: 67, sampling) {
            let expected = TestJPEG.expectedLosslessTurn(of: try TestJPEG.coefficients(source), orientation: orientation)
            #expect(try TestJPEG.coefficients(photo.bytes).components.map(\.blocks) == expected.components.map(\.blocks))
        }
        try expectUpright(photo, source: source, orientation: orientation, width: 101, height: 67)
    }

    @Test("A 4:2:0 photo whose height is not whole MCUs keeps its partial edge, in the right place, when turned 90 degrees")
    func partialEdgeStaysInPlace() throws {
        // The case exiftran misplaces and jhead trims: 160x120 is 7.5 MCUs high.
        let source = try stored(width: 160, height: 120, orientation: 6, sampling: JPEGOrientationTests.samplings[0])
        let photo = try PhotoFiling.upright(source)
        #expect((photo.width, photo.height) == (120, 160))
        let expected = try TestJPEG.decode(source).turnedUpright(for: 6)
        let got = try TestJPEG.decode(photo.bytes)
        // The stored picture's bottom 8 rows become the upright picture's left 8 columns.
        let strip = { (picture: TestPicture) in
            TestPicture(width: 8, height: picture.height, channels: 3,
                        pixels: (0..<picture.height).flatMap { y in picture.pixels[(y * picture.width * 3)..<(y * picture.width * 3 + 24)] })
        }
        #expect(strip(got).psnr(against: strip(expected)) >= 40)
        #expect(got.psnr(against: expected) >= 40)
    }

    @Test("A photo over 48 MP that is not whole MCUs is turned exactly and written sequentially, so the encoder never holds all its coefficients")
    func bigUnalignedPhotosStreamTheirOutput() throws {
        let (width, height) = (8016, 6001)
        let source = try stored(width: width, height: height, orientation: 6, sampling: JPEGOrientationTests.samplings[0])
        let photo = try PhotoFiling.upright(source)
        try expectUpright(photo, source: source, orientation: 6, width: width, height: height)
        // Baseline (SOF0), standard tables: no SOF2 progressive frame, which would make the
        // compressor buffer the whole picture's coefficients.
        let frame = try #require(photo.bytes.indices.dropLast().first { photo.bytes[$0] == 0xFF && (0xC0...0xC2).contains(photo.bytes[$0 + 1]) })
        #expect(photo.bytes[frame + 1] == 0xC0)
        // libjpeg's standard luminance DC table (JPEG Annex K.3), not one fitted in a second
        // pass: fitting tables needs every coefficient first.
        let standardDC: [UInt8] = [0x00, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0] + Array(0...11)
        #expect(photo.bytes.indices.dropLast(standardDC.count).contains { photo.bytes[$0..<$0 + standardDC.count].elementsEqual(standardDC) })
    }

    @Test("The EXIF is kept, with Orientation 1, upright pixel dimensions and a turned thumbnail")
    func exifIsRewrittenAndKept() throws {
        let thumbnail = try TestJPEG.encode(.smooth(width: 40, height: 24), hSamp: 2, vSamp: 2)
        let source = try stored(width: 96, height: 64, orientation: 8, sampling: JPEGOrientationTests.samplings[0],
                                thumbnail: thumbnail)
        let photo = try PhotoFiling.upright(source)
        let exif = try #require(ExifInspector(jpeg: photo.bytes))
        #expect(exif.orientation == 1)
        #expect(exif.dateTimeOriginal == "2023:05:07 14:30:09")
        #expect(exif.make == "Dossier Test Camera")
        #expect(exif.pixelXDimension == 64)
        #expect(exif.pixelYDimension == 96)
        let turnedThumbnail = try TestJPEG.decode(try #require(exif.thumbnail))
        #expect((turnedThumbnail.width, turnedThumbnail.height) == (24, 40))
        #expect(turnedThumbnail.psnr(against: try TestJPEG.decode(thumbnail).turnedUpright(for: 8)) >= 35)
        #expect(photo.captureDate == CaptureDate(LocalDateTime(year: 2023, month: 5, day: 7, hour: 14, minute: 30, second: 9)!,
                                                 origin: .exifDateTimeOriginal))
    }

    @Test("A little-endian EXIF block is read and rewritten alike")
    func littleEndianExif() throws {
        var exif = ExifFixture()
        exif.bigEndian = false
        exif.orientation = 3
        let source = try TestJPEG.encode(.smooth(width: 64, height: 48), hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        let photo = try PhotoFiling.upright(source)
        #expect(ExifInspector(jpeg: photo.bytes)?.orientation == 1)
        #expect(try TestJPEG.decode(photo.bytes).psnr(against: try TestJPEG.decode(source).turnedUpright(for: 3)) >= 40)
    }

    @Test("Orientation 0 and values out of range count as 1: pixels kept, the tag reset to 1", arguments: [0, 9, 400])
    func bogusOrientationsCountAsUpright(_ value: Int) throws {
        var exif = ExifFixture()
        exif.orientation = value
        let source = try TestJPEG.encode(.smooth(width: 64, height: 48), hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        let photo = try PhotoFiling.upright(source)
        #expect(ExifInspector(jpeg: photo.bytes)?.orientation == 1)
        #expect(try TestJPEG.coefficients(photo.bytes).components.map(\.blocks)
            == (try TestJPEG.coefficients(source).components.map(\.blocks)))
    }

    @Test("An upright JPEG is filed byte for byte as it came")
    func uprightPhotosAreUntouched() throws {
        let source = try stored(width: 64, height: 48, orientation: 1, sampling: JPEGOrientationTests.samplings[0])
        #expect(try PhotoFiling.upright(source).bytes == source)
    }

    @Test("With no DateTimeOriginal the EXIF DateTime names the photo, and with no EXIF the file's mtime")
    func captureDateFallbacks() throws {
        var exif = ExifFixture()
        exif.dateTimeOriginal = nil
        exif.dateTime = "2022:12:31 23:59:58"
        let withDateTime = try TestJPEG.encode(.smooth(width: 16, height: 16), hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        #expect(try PhotoFiling.imported(withDateTime).captureDate
            == CaptureDate(LocalDateTime(year: 2022, month: 12, day: 31, hour: 23, minute: 59, second: 58)!, origin: .exifDateTime))
        let bare = try TestJPEG.encode(.smooth(width: 16, height: 16), hSamp: 2, vSamp: 2)
        let photo = try PhotoFiling.imported(bare)
        #expect(photo.captureDate.origin == .fileModificationTime)
        #expect(photo.captureDate.dateTime == LocalDateTime(photo.source.modificationDate))
    }

    @Test("A JPEG whose data ends early but still decodes is filed byte for byte, damaged, never turned; its EXIF turn kept")
    func truncatedJPEGIsFiledAsItIs() throws {
        let source = try stored(width: 96, height: 64, orientation: 6, sampling: JPEGOrientationTests.samplings[0])
        let truncated = Array(source.prefix(source.count * 2 / 3))
        let photo = try PhotoFiling.upright(truncated)
        #expect(photo.damage == "Premature end of JPEG file")
        #expect(photo.content.digest == ContentDigest(of: truncated))
        #expect(photo.orientation == Orientation(exifValue: 6))
        #expect(photo.warnings.last == "damaged (Premature end of JPEG file), but it decodes: filed byte for byte as it is, "
            + "not turned (its EXIF Orientation 6 kept, so viewers that honour it show it upright)")
        let uprightTruncated = Array(try stored(width: 96, height: 64, orientation: 1,
                                                sampling: JPEGOrientationTests.samplings[0]).dropLast(200))
        let upright = try PhotoFiling.upright(uprightTruncated)
        #expect(upright.content.digest == ContentDigest(of: uprightTruncated))
        #expect(upright.warnings.last == "damaged (Premature end of JPEG file), but it decodes: filed byte for byte as it is")
    }

    @Test("A JPEG cut inside its header, with no picture to show, fails with libjpeg's own message")
    func headerCutJPEGFails() throws {
        let source = try stored(width: 96, height: 64, orientation: 6, sampling: JPEGOrientationTests.samplings[0])
        let scan = try #require(JPEGSegments.firstScan(in: source))
        #expect(throws: PhotoError.self) { try PhotoFiling.upright(Array(source.prefix(scan - 10))) }
    }

    func expectUpright(_ photo: Photo, source: [UInt8], orientation: Int, width: Int, height: Int,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let swapped = orientation >= 5
        #expect((photo.width, photo.height) == (swapped ? height : width, swapped ? width : height),
                sourceLocation: sourceLocation)
        let got = try TestJPEG.decode(photo.bytes)
        let expected = try TestJPEG.decode(source).turnedUpright(for: orientation)
        #expect((got.width, got.height) == (expected.width, expected.height), sourceLocation: sourceLocation)
        let psnr = got.psnr(against: expected)
        #expect(psnr >= 40, "PSNR \(psnr) dB", sourceLocation: sourceLocation)
        #expect(ExifInspector(jpeg: photo.bytes)?.orientation == 1, sourceLocation: sourceLocation)
        #expect(photo.orientation == .up, sourceLocation: sourceLocation)
    }
}
