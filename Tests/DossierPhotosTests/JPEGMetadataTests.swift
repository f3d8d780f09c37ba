import DossierCore
import Testing
@testable import DossierPhotos

@Suite("JPEG metadata survives the turn")
struct JPEGMetadataTests {
    /// The marker segments before the first scan: (marker, payload).
    static func segments(_ jpeg: [UInt8]) -> [(UInt8, [UInt8])] {
        var found: [(UInt8, [UInt8])] = []
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            found.append((jpeg[position + 1], Array(jpeg[(position + 4)..<(position + 2 + length)])))
            position += 2 + length
        }
        return found
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    @Test("An ICC profile, XMP packet and comment are kept, in order, byte for byte", arguments: [3, 6])
    func otherSegmentsAreKept(orientation: Int) throws {
        var exif = ExifFixture()
        exif.orientation = orientation
        let plain = try TestJPEG.encode(.smooth(width: 96, height: 64), hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        let icc = Array("ICC_PROFILE".utf8) + [0, 1, 1] + Array(repeating: 0x42, count: 300)
        let xmp = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array("<x:xmpmeta>Leo</x:xmpmeta>".utf8)
        let comment = Array("scanned by the keeper".utf8)
        // After SOI and the encoder's own segments, before the tables.
        let exifEnd = 2 + JPEGMetadataTests.segments(plain).prefix(2).reduce(0) { $0 + $1.1.count + 4 }
        let source = Array(plain[..<exifEnd]) + JPEGMetadataTests.segment(0xE2, icc)
            + JPEGMetadataTests.segment(0xE1, xmp) + JPEGMetadataTests.segment(0xFE, comment) + Array(plain[exifEnd...])
        let photo = try PhotoFiling.upright(source)
        let kept = JPEGMetadataTests.segments(photo.bytes).filter { [0xE2, 0xFE].contains($0.0) || ($0.0 == 0xE1 && $0.1.starts(with: Array("http".utf8))) }
        #expect(kept.map(\.0) == [0xE2, 0xE1, 0xFE])
        #expect(kept.map(\.1) == [icc, xmp, comment])
        #expect(JPEGMetadataTests.segments(photo.bytes).filter { $0.0 == 0xE1 }.count == 2)
        #expect(ExifInspector(jpeg: photo.bytes)?.orientation == 1)
    }
}
