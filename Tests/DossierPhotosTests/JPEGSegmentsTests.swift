import Foundation
import Testing
@testable import DossierPhotos

@Suite("A JPEG's marker segments")
struct JPEGSegmentsTests {
    /// SOI, a DQT-like segment, SOS, entropy data with a stuffed 0xFF00, a restart marker and a
    /// fill byte before the next marker, a second scan, then EOI.
    static let image: [UInt8] = [0xFF, 0xD8,
                                 0xFF, 0xDB, 0x00, 0x04, 0x01, 0x02,
                                 0xFF, 0xDA, 0x00, 0x03, 0x00,
                                 0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF,
                                 0xFF, 0xDA, 0x00, 0x03, 0x00,
                                 0x78, 0xFF, 0x00,
                                 0xFF, 0xD9]

    @Test("The first scan is found past segments and fill bytes; markers running past the bytes give none")
    func theFirstScanIsFound() {
        #expect(JPEGSegments.firstScan(in: JPEGSegmentsTests.image) == 8)
        #expect(JPEGSegments.firstScan(in: Array(JPEGSegmentsTests.image.prefix(7))) == nil)
        #expect(JPEGSegments.firstScan(in: [0xFF, 0xD8, 0xFF, 0xFF, 0xFF, 0xD9]) == 4)
    }
}
