import DossierCore
import DossierTestSupport
import Foundation
import Testing
@testable import DossierPhotos

/// The HEIF corpus (../shared/corpora/heif): each file's fate as its README and SOURCE.txt say.
@Suite("HEIF corpus", SharedCorpora.required)
struct HEIFCorpusTests {
    struct Readable: CustomTestStringConvertible, Sendable {
        let path: String
        let width: Int
        let height: Int
        let alpha: Bool
        var testDescription: String { "\((path as NSString).lastPathComponent) \(width)x\(height)\(alpha ? " RGBA" : "")" }
    }

    /// The files libheif 1.15.1 opens and decodes, at their Displayed size (SOURCE.txt).
    static let readable: [Readable] = [
        .init(path: "heif/nokia-conformance/C001.heic", width: 1280, height: 720, alpha: false),
        .init(path: "heif/nokia-conformance/C002.heic", width: 1280, height: 720, alpha: false),
        .init(path: "heif/nokia-conformance/C005.heic", width: 1280, height: 720, alpha: false),
        .init(path: "heif/nokia-conformance/C006.heic", width: 1280, height: 720, alpha: true),
        .init(path: "heif/nokia-conformance/C007.heic", width: 2560, height: 1440, alpha: false),
        .init(path: "heif/nokia-conformance/C012.heic", width: 1280, height: 720, alpha: false),
        .init(path: "heif/nokia-conformance/C013.heic", width: 300, height: 300, alpha: false),
        .init(path: "heif/nokia-conformance/C021.heic", width: 1280, height: 720, alpha: false),
        .init(path: "heif/nokia-conformance/C022.heic", width: 1440, height: 960, alpha: false),
        .init(path: "heif/nokia-conformance/C034.heic", width: 1280, height: 720, alpha: false),
        .init(path: "heif/nokia-conformance/C042.heic", width: 1280, height: 720, alpha: false),
        .init(path: "heif/nokia-conformance/C052.heic", width: 1280, height: 720, alpha: true),
        .init(path: "heif/nokia-conformance/MIAF001.heic", width: 1280, height: 720, alpha: false),
        .init(path: "heif/nokia-conformance/MIAF002.heic", width: 2048, height: 2048, alpha: false),
        .init(path: "heif/nokia-conformance/MIAF003.heic", width: 2048, height: 2048, alpha: false),
        .init(path: "heif/nokia-conformance/MIAF007.heic", width: 360, height: 640, alpha: false),
        .init(path: "heif/test-heic-images/image1.heic", width: 3992, height: 2992, alpha: false),
        .init(path: "heif/test-heic-images/image2.heic", width: 3464, height: 2130, alpha: false),
        .init(path: "heif/test-heic-images/image3.heic", width: 4242, height: 2828, alpha: false),
        .init(path: "heif/test-heic-images/image4.heic", width: 700, height: 476, alpha: true),
        .init(path: "heif/libheif-examples/examples/example.heic", width: 1280, height: 854, alpha: false),
        .init(path: "heif/libheif-examples/fuzzing/data/corpus/colors-no-alpha.heic", width: 64, height: 64, alpha: false),
        .init(path: "heif/libheif-examples/fuzzing/data/corpus/colors-no-alpha-thumbnail.heic", width: 72, height: 72,
              alpha: false),
        .init(path: "heif/libheif-examples/fuzzing/data/corpus/colors-with-alpha.heic", width: 64, height: 64, alpha: true),
        .init(path: "heif/libheif-examples/fuzzing/data/corpus/colors-with-alpha-thumbnail.heic", width: 72, height: 72,
              alpha: true),
        .init(path: "heif/libheif-examples/fuzzing/data/corpus/hevc32.heif", width: 32, height: 32, alpha: false),
        .init(path: "heif/libheif-examples/fuzzing/data/corpus/avif32.heif", width: 32, height: 32, alpha: false),
        .init(path: "heif/libheif-examples/tests/data/rainbow-451x461.heic", width: 451, height: 461, alpha: false),
        .init(path: "heif/libheif-examples/tests/data/with-alpha-512x512.heic", width: 512, height: 512, alpha: true),
        .init(path: "heif/immich-test-assets/formats/heic/IMG_2682.heic", width: 4032, height: 3024, alpha: false),
        .init(path: "heif/immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic", width: 3000, height: 4000,
              alpha: false),
    ]

    @Test("Each HEIF libheif opens is filed as it was (bar the EXIF tag), at its displayed size, with a rendition equal to libheif's own decode",
          arguments: readable)
    func readableFile(_ file: Readable) throws {
        let source = try Corpora.bytes(file.path)
        let photo = try PhotoFiling.upright(source, path: file.path)
        #expect(photo.format == (file.path.hasSuffix("avif32.heif") ? .avif : .heic))
        #expect((photo.width, photo.height) == (file.width, file.height))
        // The filed HEIF is the source, bar at most the two bytes of its EXIF Orientation.
        #expect(photo.bytes.count == source.count)
        #expect(zip(photo.bytes, source).filter { $0 != $1 }.count <= 2)
        // ...so it decodes to exactly the source's pixels.
        let decodedSource = try HEIFCodec.decode(.memory(source))
        #expect(try HEIFCodec.decode(.memory(photo.bytes)).bytes == decodedSource.bytes)
        #expect((decodedSource.width, decodedSource.height) == (file.width, file.height))

        let rendition = try #require(photo.rendition)
        #expect(rendition.format == (file.alpha ? .png : .jpeg))
        let shown = try HEIFCorpusTests.picture(of: rendition)
        #expect((shown.width, shown.height, shown.channels) == (file.width, file.height, file.alpha ? 4 : 3))
        let expected = TestPicture(width: decodedSource.width, height: decodedSource.height,
                                   channels: decodedSource.channels, pixels: decodedSource.bytes)
        let psnr = shown.psnr(against: expected)
        if rendition.format == .png {
            #expect(psnr == .infinity, "a PNG rendition is lossless")
            return
        }
        // Quality 90 itself loses more than that on the two busiest pictures (example.heic 37.5 dB,
        // image2 39.1 dB): there the rendition must be exactly libjpeg's quality-90 4:4:4 encoding
        // of libheif's decode, so all it loses is what quality 90 does.
        let reference = try TestJPEG.decode(try TestJPEG.encode(expected, quality: 90, hSamp: 1, vSamp: 1))
        if reference.psnr(against: expected) >= 40 {
            #expect(psnr >= 40, "rendition PSNR \(psnr) dB against libheif's decode")
        } else {
            #expect(shown == reference, "rendition PSNR \(psnr) dB; quality 90 alone gives \(reference.psnr(against: expected))")
        }
    }

    @Test("The Samsung motion photo (irot 270 and EXIF Orientation 6: one turn) is filed portrait, its EXIF tag reset to 1 in place, its embedded video kept byte for byte")
    func samsungMotionPhoto() throws {
        let path = "heif/immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic"
        let source = try Corpora.bytes(path)
        let photo = try PhotoFiling.upright(source, path: path)
        #expect((photo.width, photo.height) == (3000, 4000))
        let before = try #require(HEIFCorpusTests.exifOrientation(in: source))
        let after = try #require(HEIFCorpusTests.exifOrientation(in: photo.bytes))
        #expect(before.value == 6)
        #expect(after.value == 1)
        // Only those two bytes changed: every box, and the 3,226,469-byte video after 'meta', as it was.
        let changed = zip(photo.bytes, source).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(changed.count == 1 || changed.count == 2)
        let boxes = try ISOBoxReader(photo.bytes).topLevel()
        let video = try #require(boxes.first { $0.type == "mpvd" })
        #expect(video.payloadLength == 3_226_469)
        #expect(photo.bytes[Int(video.start)..<Int(video.end)] == source[Int(video.start)..<Int(video.end)])
        // The rendition is portrait and carries Orientation 1 and the original date.
        let rendition = try #require(photo.rendition)
        let shown = try TestJPEG.decode(rendition.bytes)
        #expect((shown.width, shown.height) == (3000, 4000))
        let exif = try #require(ExifInspector(jpeg: rendition.bytes))
        #expect(exif.orientation == 1)
        #expect(photo.captureDate == CaptureDate(LocalDateTime(year: 2024, month: 1, day: 12, hour: 21, minute: 38,
                                                               second: 53)!, origin: .exifDateTimeOriginal,
                                                 utcOffset: UTCOffset(minutes: -8 * 60)))
        #expect(photo.captureDate.iso8601 == "2024-01-12T21:38:53-08:00")
    }

    @Test("Dates come from the EXIF item: iPhone, Samsung, and C034's block without the 4-byte offset", arguments: [
        ("heif/immich-test-assets/formats/heic/IMG_2682.heic", "2019-03-21T11:04:22"),
        ("heif/nokia-conformance/C034.heic", "2016-02-15T09:37:31"),
    ])
    func exifDates(_ path: String, _ expected: String) throws {
        let photo = try PhotoFiling.imported(try Corpora.bytes(path), path: path)
        #expect(photo.captureDate.origin == .exifDateTimeOriginal)
        #expect(photo.captureDate.dateTime.iso8601 == expected)
    }

    @Test("C042 (imir axis 0) shows C002 upside down; MIAF007 (clap, irot 90, imir) a 360x640 portrait of its centre")
    func mirrorsAndTurns() throws {
        let upright = try HEIFCodec.decode(.memory(try Corpora.bytes("heif/nokia-conformance/C002.heic")))
        let reference = TestPicture(width: upright.width, height: upright.height, channels: 3, pixels: upright.bytes)
        let mirrored = try PhotoFiling.upright(try Corpora.bytes("heif/nokia-conformance/C042.heic"))
        let shown = try TestJPEG.decode(try #require(mirrored.rendition).bytes)
        #expect(shown.psnr(against: reference.turnedUpright(for: 4)) >= 38)
        #expect(shown.psnr(against: reference) < 20)

        let miaf = try PhotoFiling.upright(try Corpora.bytes("heif/nokia-conformance/MIAF007.heic"))
        let portrait = try TestJPEG.decode(try #require(miaf.rendition).bytes)
        #expect((portrait.width, portrait.height) == (360, 640))
        // C002's centre 640x360, turned 90 anticlockwise (EXIF 8's turn), then flipped top to bottom.
        var centre = TestPicture(width: 640, height: 360, channels: 3, pixels: [])
        for y in 180..<540 { centre.pixels += reference.pixels[(y * 1280 + 320) * 3..<(y * 1280 + 960) * 3] }
        let expected = centre.turnedUpright(for: 8).turnedUpright(for: 4)
        #expect(portrait.psnr(against: expected) >= 38)
    }

    @Test("Files libheif 1.15.1 cannot read fail with libheif's own message", arguments: [
        ("heif/nokia-conformance/C008.heic", "Item with ID 1006 has no compressed data"),
        ("heif/nokia-conformance/C014.heic", "Item with ID 1003 has no compressed data"),
        ("heif/nokia-conformance/C039.heic", "Item with ID 1003 has no compressed data"),
        ("heif/nokia-conformance/C041.heic", "File does not include any supported brands"),
        ("heif/libheif-examples/fuzzing/data/corpus/vvc32.heif", "Unsupported image type"),
        ("heif/libheif-examples/fuzzing/data/corpus/hevc32-mini.heif", "No 'ftyp' box"),
        ("heif/libheif-examples/fuzzing/data/corpus/github_44.heic", "Extent in iloc box references data outside of file bounds"),
        ("heif/libheif-examples/fuzzing/data/corpus/github_48.heic", "Tile image ID=1 is not a proper image"),
        ("heif/libheif-examples/fuzzing/data/corpus/github_138.heic", "Invalid grid data: Less than 8 bytes of data"),
        ("heif/libheif-examples/fuzzing/data/corpus/clap-overflow-divide-zero.heic", "No 'meta' box"),
        ("heif/libheif-examples/fuzzing/data/corpus/clusterfuzz-testcase-minimized-file-fuzzer-5732616832024576.heic",
         "Missing grid images"),
        ("heif/libheif-examples/fuzzing/data/corpus/crash-20ca2625096a205937b809a7841e7f019f0b2dc6.heic",
         "'pitm' box references a non-existing image"),
        ("heif/libheif-examples/fuzzing/data/corpus/uaf_heif_context.h_117_1.heic", "Non-existing alpha image referenced"),
        ("heif/libheif-examples/fuzzing/data/corpus/hbo_heif_context.h_126_1.heic",
         "Item (ID=234) has no properties assigned to it in ipma box"),
        ("heif/libheif-examples/fuzzing/data/corpus/region-mask-missing-refs.heic",
         "Overlay image data version 32 is not implemented yet"),
    ])
    func unreadableFile(_ path: String, _ message: String) throws {
        #expect {
            _ = try PhotoFiling.upright(try Corpora.bytes(path), path: path)
        } throws: { error in
            guard case .corrupt(let format, let reason) = error as? PhotoError else { return false }
            return format == "HEIF" && reason.contains(message)
        }
    }

    @Test("The two fuzz inputs with no 'ftyp' box are not taken for HEIF at all", arguments: ["github_15.heic", "github_20.heic"])
    func notHEIF(_ name: String) throws {
        let bytes = try Corpora.bytes("heif/libheif-examples/fuzzing/data/corpus/\(name)")
        #expect(!HEIFHandler().canRead(head: Array(bytes.prefix(ImportPipeline.sniffLength))))
    }

    @Test("The iPhone rendition keeps the EXIF date and camera, Orientation 1, no thumbnail, and the HEIC's ICC profile")
    func renditionMetadata() throws {
        let source = try Corpora.bytes("heif/immich-test-assets/formats/heic/IMG_2682.heic")
        let photo = try PhotoFiling.upright(source)
        let rendition = try #require(photo.rendition).bytes
        let exif = try #require(ExifInspector(jpeg: rendition))
        #expect(exif.dateTimeOriginal == "2019:03:21 11:04:22")
        #expect(exif.make == "Apple")
        #expect(exif.orientation == 1)
        #expect(exif.thumbnail == nil)
        let profile = try #require(try HEIFCodec.inspect(.memory(source)).iccProfile)
        #expect(HEIFCorpusTests.iccProfile(inJPEG: rendition) == profile)
    }

    @Test("A HEIC whose EXIF says a turn its container does not carry is reported, kept as it is, and its rendition turned by the tag")
    func exifTurnWithoutContainerTurn() throws {
        // image4 has EXIF Orientation 1 and no irot or imir: its tag set to 6 in place makes the
        // file a tool that relied on EXIF would write.
        var source = try Corpora.bytes("heif/test-heic-images/image4.heic")
        let structure = try HEIFStructure(reading: source)
        #expect(structure.primaryTransforms.isEmpty)
        let extents = try #require(structure.exifExtents)
        let exif = try #require(HEIFExif(item: extents.flatMap { source[Int($0.lowerBound)..<Int($0.upperBound)] }))
        let field = try #require(ExifOrientationField(tiff: exif.tiff))
        let at = Int(try #require(HEIFExif.fileOffset(of: exif.tiffStart + field.offset, in: extents)))
        source[at..<at + 2] = field.bigEndian ? [0, 6] : [6, 0]

        let photo = try PhotoFiling.upright(source)
        #expect(photo.bytes == source)
        #expect(photo.warnings.contains { $0.contains("EXIF Orientation 6 but no turn in the HEIF container") })
        let rendition = try #require(photo.rendition)
        #expect((rendition.width, rendition.height) == (476, 700))
        let decoded = try HEIFCodec.decode(.memory(source))
        let stored = TestPicture(width: decoded.width, height: decoded.height, channels: 4, pixels: decoded.bytes)
        #expect(try TestPNG.decode(rendition.bytes).picture == stored.turnedUpright(for: 6))
    }

    // MARK: Helpers

    /// The ICC profile a JPEG's APP2 ICC_PROFILE segments hold, joined in order.
    static func iccProfile(inJPEG jpeg: [UInt8]) -> [UInt8]? {
        var chunks: [(Int, [UInt8])] = []
        var position = 2
        let signature = Array("ICC_PROFILE".utf8) + [0]
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            let payload = Array(jpeg[(position + 4)..<min(jpeg.count, position + 2 + length)])
            if jpeg[position + 1] == 0xE2, payload.starts(with: signature) {
                chunks.append((Int(payload[12]), Array(payload[14...])))
            }
            position += 2 + length
        }
        return chunks.isEmpty ? nil : chunks.sorted { $0.0 < $1.0 }.flatMap(\.1)
    }

    static func picture(of rendition: PhotoRendition) throws -> TestPicture {
        switch rendition.format {
        case .png: return try TestPNG.decode(rendition.bytes).picture
        default: return try TestJPEG.decode(rendition.bytes)
        }
    }

    /// The EXIF Orientation field of a HEIF's EXIF item, read from the file's own boxes.
    static func exifOrientation(in bytes: [UInt8]) -> ExifOrientationField? {
        guard let structure = try? HEIFStructure(reading: bytes), let extents = structure.exifExtents else { return nil }
        let item = extents.flatMap { bytes[Int($0.lowerBound)..<Int($0.upperBound)] }
        return HEIFExif(item: item).flatMap { ExifOrientationField(tiff: $0.tiff) }
    }
}
