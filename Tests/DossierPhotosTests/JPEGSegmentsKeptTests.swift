import DossierCore
import DossierTestSupport
import Testing
@testable import DossierPhotos

@Suite("Every marker segment of a JPEG but its EXIF is carried over by the turn")
struct JPEGSegmentsKeptTests {
    /// A stored picture and the turning path orientation 6 takes for it.
    struct Layout: CustomTestStringConvertible, Sendable {
        let name: String
        let width: Int
        let height: Int
        let path: JPEGCodec.Path
        var testDescription: String { name }
    }

    /// At 4:2:0 a turn by 90 degrees carries the bottom edge to the left: 64 rows are whole MCUs,
    /// 67 are not.
    static let layouts = [Layout(name: "pixel path (101x67, not whole MCUs)", width: 101, height: 67, path: .reencoded),
                          Layout(name: "coefficient path (96x64, whole MCUs)", width: 96, height: 64, path: .lossless)]

    static let iccProfile: [UInt8] = (0..<70_000).map { UInt8(($0 * 7 + $0 / 251) & 0xFF) }
    /// The profile as ICC.1 spreads it over APP2 segments: `ICC_PROFILE\0`, the chunk's number and
    /// the count; the first chunk as large as a segment holds (65533 bytes of payload).
    static let iccChunks: [[UInt8]] = [
        Array("ICC_PROFILE".utf8) + [0, 1, 2] + Array(iccProfile[..<65_519]),
        Array("ICC_PROFILE".utf8) + [0, 2, 2] + Array(iccProfile[65_519...]),
    ]
    static let xmp: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:description>Rex at the beach</dc:description></rdf:Description></rdf:RDF></x:xmpmeta>".utf8)
    static let firstComment: [UInt8] = Array("Rex, three months old".utf8)
    static let secondComment: [UInt8] = Array("scanned by the keeper".utf8)
    /// A segment no one in Dossier knows, holding every byte value (0xFF included).
    static let unknownApp11: [UInt8] = Array("JP".utf8) + (0...255).map { UInt8($0) }
    /// Adobe's APP14, version 100, saying the picture is stored as YCbCr (transform 1): like the
    /// JFIF APP0, a kind libjpeg writes by itself unless told not to, so the filed photo must hold
    /// the source's and only it.
    static let adobe: [UInt8] = Array("Adobe".utf8) + [0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x01]
    /// Bytes after the end of the picture, as a motion photo carries its video.
    static let trailer: [UInt8] = Array("trailing bytes".utf8) + [0xFF, 0xD9, 0xFF, 0xD8, 0x00]

    /// A JPEG stored sideways (Orientation 6) whose APPn and COM segments are, in order: the
    /// encoder's JFIF APP0, the first comment, the EXIF APP1, the ICC profile in two APP2
    /// segments, the XMP APP1, the unknown APP11, the second comment and Adobe's APP14;
    /// `trailer` after its end.
    static func sideways(_ layout: Layout) throws -> [UInt8] {
        var exif = ExifFixture()
        exif.orientation = 6
        exif.pixelSize = (layout.width, layout.height)
        let plain = try TestJPEG.encode(.smooth(width: layout.width, height: layout.height), hSamp: 2, vSamp: 2,
                                        app1: exif.app1Payload)
        let encoded = JPEGMetadataTests.segments(plain)
        #expect(encoded.prefix(2).map(\.0) == [0xE0, 0xE1])
        let jfifEnd = 2 + encoded[0].1.count + 4
        let exifEnd = jfifEnd + encoded[1].1.count + 4
        let segment = JPEGMetadataTests.segment
        return Array(plain[..<jfifEnd]) + segment(0xFE, firstComment) + Array(plain[jfifEnd..<exifEnd])
            + segment(0xE2, iccChunks[0]) + segment(0xE2, iccChunks[1]) + segment(0xE1, xmp)
            + segment(0xEB, unknownApp11) + segment(0xFE, secondComment) + segment(0xEE, adobe)
            + Array(plain[exifEnd...]) + trailer
    }

    /// The APPn and COM segments before the first scan, each whole (marker and length included),
    /// with the EXIF APP1 as nil: it is the one segment the turn rewrites.
    static func segmentsKept(_ jpeg: [UInt8]) -> [[UInt8]?] {
        JPEGMetadataTests.segments(jpeg).filter { (0xE0...0xEF).contains($0.0) || $0.0 == 0xFE }.map { marker, payload in
            marker == 0xE1 && payload.starts(with: JPEGSegments.exifPrefix) ? nil : JPEGMetadataTests.segment(marker, payload)
        }
    }

    @Test("A sideways JPEG keeps its ICC profile in two APP2 segments, its XMP, its comments, an unknown APP11 and its JFIF and Adobe segments (none doubled), byte for byte and in order, on either path, in memory or through scratch files",
          arguments: layouts, [false, true])
    func everySegmentIsKept(_ layout: Layout, asLarge: Bool) throws {
        let source = try JPEGSegmentsKeptTests.sideways(layout)
        #expect(try JPEGCodec.orient(source, orientation: 6, exifPayload: nil).path == layout.path)
        let photo = try PhotoFiling.upright(source, asLarge: asLarge)
        let filed = photo.bytes

        let expected = JPEGSegmentsKeptTests.segmentsKept(source)
        #expect(expected.count == 9)
        #expect(JPEGSegmentsKeptTests.segmentsKept(filed) == expected)
        // The EXIF, at the same place, rewritten: upright, with the upright picture's size.
        let exif = try #require(ExifInspector(jpeg: filed))
        #expect(exif.orientation == 1)
        #expect(exif.pixelXDimension == layout.height)
        #expect(exif.pixelYDimension == layout.width)
        #expect(exif.make == "Dossier Test Camera")

        let picture = Array(filed.dropLast(JPEGSegmentsKeptTests.trailer.count))
        #expect(Array(filed.suffix(JPEGSegmentsKeptTests.trailer.count)) == JPEGSegmentsKeptTests.trailer)
        #expect(Array(picture.suffix(2)) == [0xFF, 0xD9])
        let got = try TestJPEG.decode(picture)
        let want = try TestJPEG.decode(source).turnedUpright(for: 6)
        #expect((got.width, got.height) == (layout.height, layout.width))
        let psnr = got.psnr(against: want)
        #expect(psnr >= 40, "PSNR \(psnr) dB")
        if layout.path == .lossless {
            let turned = TestJPEG.expectedLosslessTurn(of: try TestJPEG.coefficients(source), orientation: 6)
            #expect(try TestJPEG.coefficients(picture).components.map(\.blocks) == turned.components.map(\.blocks))
        }
    }

    @Test("A comment written after the picture's data, just before its end, is kept too, on either path",
          arguments: layouts)
    func aCommentAfterTheScanIsKept(_ layout: Layout) throws {
        let source = try JPEGSegmentsKeptTests.sideways(layout)
        let end = source.count - JPEGSegmentsKeptTests.trailer.count - 2
        let lateComment = Array("written last".utf8)
        let withLateComment = Array(source[..<end]) + JPEGMetadataTests.segment(0xFE, lateComment) + Array(source[end...])
        let filed = try PhotoFiling.upright(withLateComment).bytes
        // libjpeg writes every segment it carries before the frame: the late one goes last there.
        #expect(JPEGSegmentsKeptTests.segmentsKept(filed)
            == JPEGSegmentsKeptTests.segmentsKept(source) + [JPEGMetadataTests.segment(0xFE, lateComment)])
        #expect(Array(filed.suffix(JPEGSegmentsKeptTests.trailer.count)) == JPEGSegmentsKeptTests.trailer)
    }

    /// The corpus's sideways, upside-down and mirrored photos (orientations 2 to 8): 600x450 at
    /// 4:2:0, so all but the transposed ones take the pixel path.
    static let turnedCorpusFiles = Corpora.files(under: "exif/exif-samples/jpg/orientation", extensions: ["jpg"])
        .filter { !$0.hasSuffix("_1.jpg") }

    @Test("Every turned photo of the EXIF orientation corpus keeps each APPn and COM segment but its EXIF, byte for byte and in order",
          SharedCorpora.required)
    func corpusSegmentsAreKept() throws {
        #expect(JPEGSegmentsKeptTests.turnedCorpusFiles.count == 14)
        for file in JPEGSegmentsKeptTests.turnedCorpusFiles {
            let source = try Corpora.bytes(file)
            let photo = try PhotoFiling.upright(source, path: file)
            let expected = JPEGSegmentsKeptTests.segmentsKept(source)
            #expect(expected.contains { $0?.starts(with: [0xFF, 0xE2]) == true }, "\(file) has an ICC profile")
            #expect(JPEGSegmentsKeptTests.segmentsKept(photo.bytes) == expected, "\(file)")
            #expect(ExifInspector(jpeg: photo.bytes)?.orientation == 1, "\(file)")
        }
    }
}
