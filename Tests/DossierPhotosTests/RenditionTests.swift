import DossierCore
import DossierTestSupport
import Foundation
import Testing
@testable import DossierPhotos

/// The formats browsers cannot show are filed byte for byte with a rendition beside them: TIFF,
/// BMP and JPEG XL made by libvips, raws from the preview their camera embedded (LibRaw), each
/// upright as the file says it is shown. One whose rendition cannot be made is filed all the same.
@Suite("TIFF, BMP, JPEG XL and raws are filed as they are, with an upright rendition beside them")
struct RenditionTests {
    static let picture = TestPicture.smooth(width: 48, height: 32)

    static func tiff(orientation: Int) -> [UInt8] {
        TestTIFF.rgb(pixels: picture.pixels, width: picture.width, height: picture.height, orientation: orientation)
    }

    static func shown(_ rendition: PhotoRendition) throws -> TestPicture {
        #expect(rendition.format == .jpeg)
        let shown = try TestJPEG.decode(rendition.bytes)
        #expect((shown.width, shown.height) == (rendition.width, rendition.height))
        return shown
    }

    @Test("A TIFF's rendition is its picture turned as its Orientation tag says, and the TIFF is filed byte for byte",
          arguments: [1, 3, 6, 8])
    func tiff(orientation: Int) throws {
        let bytes = RenditionTests.tiff(orientation: orientation)
        let photo = try PhotoFiling.upright(bytes, path: "/scans/scan.tif")
        #expect(photo.format == .tiff)
        #expect(photo.content.digest == ContentDigest(of: bytes))
        let shown = try RenditionTests.shown(try #require(photo.rendition))
        let expected = RenditionTests.picture.turnedUpright(for: orientation)
        #expect((shown.width, shown.height) == (expected.width, expected.height))
        #expect(shown.psnr(against: expected) > 30)
        #expect(photo.warnings.isEmpty)
    }

    @Test("A BMP's rendition is its picture, the right way up (a BMP stores its rows bottom-up)")
    func bmp() throws {
        let bytes = TestBMP.rgb(RenditionTests.picture)
        let photo = try PhotoFiling.upright(bytes, path: "/scans/SCAN0001.BMP")
        #expect(photo.format == .bmp)
        #expect(photo.content.digest == ContentDigest(of: bytes))
        let shown = try RenditionTests.shown(try #require(photo.rendition))
        #expect((shown.width, shown.height) == (48, 32))
        #expect(shown.psnr(against: RenditionTests.picture) > 30)
    }

    @Test("A JPEG XL is recognised by its content, filed byte for byte, with a JPEG rendition of its picture")
    func jpegXL() throws {
        let picture = RenditionTests.picture
        let bytes = try VipsCodec.encode(rgb: picture.pixels, width: picture.width, height: picture.height, suffix: ".jxl")
        let photo = try PhotoFiling.upright(bytes, path: "/dump/download.bin")
        #expect(photo.format == .jxl)
        #expect(photo.content.digest == ContentDigest(of: bytes))
        let shown = try RenditionTests.shown(try #require(photo.rendition))
        #expect((shown.width, shown.height) == (48, 32))
        #expect(shown.psnr(against: picture) > 28)
    }

    @Test("A raw's rendition is its camera's preview turned as the raw says, and the raw keeps its bytes and its date",
          arguments: [1, 3, 6, 8])
    func raw(orientation: Int) throws {
        let preview = TestPicture.smooth(width: 32, height: 16)
        let jpeg = try TestJPEG.encode(preview, quality: 95, hSamp: 1, vSamp: 1)
        let bytes = TestTIFF.dng(preview: jpeg, previewWidth: 32, previewHeight: 16, orientation: orientation)
        let photo = try PhotoFiling.upright(bytes, path: "/dump/IMG_0001.DNG")
        #expect(photo.format == .dng)
        #expect(photo.content.digest == ContentDigest(of: bytes))
        #expect(photo.captureDate.iso8601 == "2019-04-05T06:07:08")
        let shown = try RenditionTests.shown(try #require(photo.rendition))
        let expected = try TestJPEG.decode(jpeg).turnedUpright(for: orientation)
        #expect((shown.width, shown.height) == (expected.width, expected.height))
        // 32 x 16 at 4:4:4 turns without loss, the camera's own coefficients moved: what differs
        // is the IDCT's rounding of a transposed block (about 62 dB; quality 90 again would be ~40).
        #expect(shown.psnr(against: expected) > 55)
    }

    @Test("A DNG written directory-last (its IFD0 past the first bytes) is a raw; a Nikon film scanner's TIFF is a TIFF")
    func tiffStructuredRawsByTheirDirectory() throws {
        let jpeg = try TestJPEG.encode(.smooth(width: 32, height: 16), quality: 95, hSamp: 1, vSamp: 1)
        // The raw data first (a 64 x 32 x 2-byte strip is 4 KiB: past the sniffed head), its IFDs after.
        let dng = TestTIFF.dng(preview: jpeg, previewWidth: 32, previewHeight: 16, orientation: 6, directoriesLast: true)
        let photo = try PhotoFiling.upright(dng, path: "/dump/IMG_0005.DNG")
        #expect(photo.format == .dng)
        #expect(photo.rendition?.width == 16)
        #expect(photo.captureDate.iso8601 == "2019-04-05T06:07:08")
        var scan = ExifFixture()
        scan.make = "Nikon"
        let tiff = TestTIFF.rgb(pixels: RenditionTests.picture.pixels, width: 48, height: 32)
        #expect(try PhotoFiling.imported(tiff, path: "/scans/slide.tif").format == .tiff)
        #expect(try PhotoFiling.imported(scan.tiff, path: "/scans/slide2.tif").format == .tiff)
    }

    @Test("A raw whose preview is stored as pixels gets a JPEG of them, turned as the raw says")
    func rawWithPixelPreview() throws {
        let preview = TestPicture.smooth(width: 32, height: 16)
        let bytes = TestTIFF.dng(preview: preview.pixels, previewWidth: 32, previewHeight: 16, previewIsJPEG: false,
                                 orientation: 6)
        let photo = try PhotoFiling.upright(bytes, path: "/dump/IMG_0003.DNG")
        let shown = try RenditionTests.shown(try #require(photo.rendition))
        let expected = preview.turnedUpright(for: 6)
        #expect((shown.width, shown.height) == (16, 32))
        #expect(shown.psnr(against: expected) > 30)
    }

    @Test("A raw LibRaw cannot read is filed byte for byte with its EXIF date, and its warnings say it has no rendition")
    func rawWithoutRendition() throws {
        var exif = ExifFixture()
        exif.dateTimeOriginal = "2019:04:05 06:07:08"
        exif.dngVersion = true
        let bytes = exif.tiff
        let photo = try PhotoFiling.upright(bytes, path: "/dump/broken.dng")
        #expect(photo.format == .dng)
        #expect(photo.rendition == nil)
        #expect(photo.content.digest == ContentDigest(of: bytes))
        #expect(photo.captureDate.iso8601 == "2019-04-05T06:07:08")
        #expect(photo.warnings.contains { $0.hasPrefix("no rendition: raw data is corrupt or unsupported: LibRaw cannot read it") },
                "\(photo.warnings)")
    }

    @Test("A raw whose embedded preview is damaged is filed byte for byte, with no rendition and the reason")
    func rawWithDamagedPreview() throws {
        let jpeg = try TestJPEG.encode(.smooth(width: 32, height: 16), quality: 95, hSamp: 1, vSamp: 1)
        let bytes = TestTIFF.dng(preview: Array(jpeg.prefix(200)), previewWidth: 32, previewHeight: 16, orientation: 6)
        let photo = try PhotoFiling.upright(bytes, path: "/dump/IMG_0002.DNG")
        #expect(photo.rendition == nil)
        #expect(photo.content.digest == ContentDigest(of: bytes))
        #expect(photo.warnings.contains { $0.hasPrefix("no rendition: ") }, "\(photo.warnings)")
    }

    @Test("A TIFF or a raw cut short is filed byte for byte, damaged, without a rendition: its damage is not made into new pixels")
    func cutShort() throws {
        let whole = RenditionTests.tiff(orientation: 1)
        let bytes = Array(whole.prefix(whole.count - 1500))
        let photo = try PhotoFiling.upright(bytes, path: "/scans/cut.tif")
        #expect(photo.format == .tiff)
        #expect(photo.rendition == nil)
        #expect(photo.content.digest == ContentDigest(of: bytes))
        let damage = "cut short: its image data runs to byte \(whole.count), the file has \(bytes.count)"
        #expect(photo.damage == damage)
        #expect(photo.warnings == ["damaged (\(damage)): filed byte for byte as it is", "no rendition: it is damaged (\(damage))"])
        // A DNG cut in its raw data, its preview whole: LibRaw would still give the preview.
        let jpeg = try TestJPEG.encode(.smooth(width: 32, height: 16), quality: 95, hSamp: 1, vSamp: 1)
        let dng = TestTIFF.dng(preview: jpeg, previewWidth: 32, previewHeight: 16, orientation: 1)
        let cutRaw = try PhotoFiling.upright(Array(dng.prefix(dng.count - 1000)), path: "/dump/IMG_0004.DNG")
        #expect(cutRaw.damage?.hasPrefix("cut short: its image data runs to byte \(dng.count)") == true)
        #expect(cutRaw.rendition == nil)
        #expect(cutRaw.captureDate.iso8601 == "2019-04-05T06:07:08")
    }

    @Test("WebP and GIF, which browsers show, get no rendition")
    func noRenditionWhereBrowsersShowIt() throws {
        let picture = RenditionTests.picture
        for suffix in [".webp", ".gif"] {
            let bytes = try VipsCodec.encode(rgb: picture.pixels, width: picture.width, height: picture.height, suffix: suffix)
            let photo = try PhotoFiling.upright(bytes, path: "/dump/picture\(suffix)")
            #expect(photo.format.fileExtension == String(suffix.dropFirst()))
            #expect(photo.rendition == nil)
            #expect(photo.warnings.isEmpty)
        }
    }
}
