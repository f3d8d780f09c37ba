import DossierCore
import Foundation
import Testing
@testable import DossierPhotos

/// A TIFF or a raw is its own EXIF block, megabytes long; libexif reads its directories from the
/// first 0xFFFE bytes only, so only those are handed to it (`ExifBlock.directoryBytes`).
@Suite("A photo's metadata from an EXIF block megabytes long")
struct LongExifBlockTests {
    @Test("A TIFF megabytes long is dated and turned as libexif reads it whole, for either byte order",
          arguments: [true, false])
    func readAsWhole(bigEndian: Bool) throws {
        var exif = ExifFixture()
        exif.bigEndian = bigEndian
        exif.orientation = 6
        exif.dateTimeOriginal = "2019:04:05 06:07:08"
        exif.offsetTimeOriginal = "+09:00"
        let long = exif.tiff + (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let source = SourceFile(path: "/dump/scan.tif", size: Int64(long.count), modificationTime: 0)
        let metadata = PhotoMetadata(exif: long, pngTime: nil, source: source, timeZone: TimeZone(identifier: "UTC")!)
        let whole = try #require(ExifBlock(tiff: long))
        #expect(metadata.orientation == Orientation(exifValue: try #require(whole.orientationTag)))
        #expect(metadata.orientation == Orientation(exifValue: 6))
        #expect(metadata.captureDate.dateTime == whole.dateTimeOriginal)
        #expect(metadata.captureDate.utcOffset == whole.offsetTimeOriginal)
        #expect(metadata.captureDate.iso8601 == "2019-04-05T06:07:08+09:00")
        #expect(metadata.warnings.isEmpty)
    }

    @Test("One whose directory lies past the first 0xFFFE bytes is unreadable, as it was read whole")
    func directoryPastTheStart() throws {
        var tiff = ExifFixture().tiff
        let padded = Array(tiff.prefix(8)) + [UInt8](repeating: 0, count: 70_000) + Array(tiff.dropFirst(8))
        // Its first directory's offset, moved along with it.
        let offset = Int(tiff[4]) << 24 | Int(tiff[5]) << 16 | Int(tiff[6]) << 8 | Int(tiff[7])
        tiff = padded
        let moved = offset + 70_000
        tiff.replaceSubrange(4..<8, with: [UInt8(moved >> 24 & 0xFF), UInt8(moved >> 16 & 0xFF),
                                           UInt8(moved >> 8 & 0xFF), UInt8(moved & 0xFF)])
        #expect(ExifBlock(tiff: tiff) == nil)
        let source = SourceFile(path: "/dump/scan.tif", size: Int64(tiff.count), modificationTime: 0)
        let metadata = PhotoMetadata(exif: tiff, pngTime: nil, source: source, timeZone: TimeZone(identifier: "UTC")!)
        #expect(metadata.warnings.contains(PhotoMetadata.unreadableExifWarning))
    }
}
