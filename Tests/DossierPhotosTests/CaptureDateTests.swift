import DossierCore
import Testing
@testable import DossierPhotos

@Suite("When a photo was taken")
struct CaptureDateTests {
    static func photo(offsetTimeOriginal: String?) throws -> Photo {
        var exif = ExifFixture()
        exif.offsetTimeOriginal = offsetTimeOriginal
        let jpeg = try TestJPEG.encode(.smooth(width: 48, height: 32), hSamp: 2, vSamp: 2, app1: exif.app1Payload)
        return try PhotoFiling.imported(jpeg)
    }

    @Test("DateTimeOriginal comes with its OffsetTimeOriginal: the name keeps the wall clock, the date knows the instant")
    func withOffset() throws {
        let photo = try CaptureDateTests.photo(offsetTimeOriginal: "+09:00")
        #expect(photo.captureDate == CaptureDate(LocalDateTime(year: 2023, month: 5, day: 7, hour: 14, minute: 30, second: 9)!,
                                                 origin: .exifDateTimeOriginal, utcOffset: UTCOffset(minutes: 540)))
        #expect(photo.captureDate.iso8601 == "2023-05-07T14:30:09+09:00")
    }

    @Test("A blank, unknown or impossible offset leaves the wall clock alone, and the photo is read all the same",
          arguments: ["   :  ", "", "+25:00", "Tokyo"])
    func withoutAUsableOffset(_ text: String) throws {
        let photo = try CaptureDateTests.photo(offsetTimeOriginal: text)
        #expect(photo.captureDate.utcOffset == nil)
        #expect(photo.captureDate.iso8601 == "2023-05-07T14:30:09")
    }
}
