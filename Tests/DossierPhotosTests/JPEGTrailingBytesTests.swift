import Foundation
import Testing
@testable import DossierPhotos

@Suite("Bytes after a JPEG's end-of-image marker")
struct JPEGTrailingBytesTests {
    /// SOI, a DQT-like segment, SOS, entropy data with a stuffed 0xFF00, a restart marker and a
    /// fill byte before the next marker, a second scan, then EOI.
    static let image: [UInt8] = [0xFF, 0xD8,
                                 0xFF, 0xDB, 0x00, 0x04, 0x01, 0x02,
                                 0xFF, 0xDA, 0x00, 0x03, 0x00,
                                 0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF,
                                 0xFF, 0xDA, 0x00, 0x03, 0x00,
                                 0x78, 0xFF, 0x00,
                                 0xFF, 0xD9]

    @Test("The image ends after its EOI, past stuffed bytes, restarts, fill bytes and several scans")
    func theEndIsFound() {
        #expect(JPEGSegments.imageEnd(in: JPEGTrailingBytesTests.image) == JPEGTrailingBytesTests.image.count)
        let video: [UInt8] = [0x00, 0x00, 0x00, 0x18] + Array("ftypmp42".utf8) + [0xFF, 0xD9, 0xFF, 0xD8]
        #expect(Array(JPEGSegments.trailingBytes(of: JPEGTrailingBytesTests.image + video)) == video)
    }

    @Test("A file that never reaches its EOI has no end, and no trailing bytes")
    func aTruncatedImageHasNoEnd() {
        let truncated = Array(JPEGTrailingBytesTests.image.dropLast(2))
        #expect(JPEGSegments.imageEnd(in: truncated) == nil)
        #expect(JPEGSegments.trailingBytes(of: truncated).isEmpty)
    }
}
