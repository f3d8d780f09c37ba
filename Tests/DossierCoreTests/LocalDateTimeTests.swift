import Foundation
import Testing
@testable import DossierCore

@Suite("Wall-clock dates")
struct LocalDateTimeTests {
    @Test("An EXIF date reads as its fields")
    func readsExifDates() throws {
        let date = try #require(LocalDateTime(exif: "2023:05:07 14:30:09\0"))
        #expect(date == LocalDateTime(year: 2023, month: 5, day: 7, hour: 14, minute: 30, second: 9))
        #expect(date.fileStamp == "2023-05-07_143009")
        #expect(date.iso8601 == "2023-05-07T14:30:09")
    }

    @Test("Unset or impossible EXIF dates read as none",
          arguments: ["0000:00:00 00:00:00", "    :  :     :  :  ", "2023:02:29 10:00:00", "2023:13:01 10:00:00", ""])
    func refusesUnsetDates(_ text: String) {
        #expect(LocalDateTime(exif: text) == nil)
    }

    @Test("29 February exists in leap years only")
    func leapYears() {
        #expect(LocalDateTime(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDateTime(year: 1900, month: 2, day: 29) == nil)
        #expect(LocalDateTime(year: 2000, month: 2, day: 29) != nil)
    }

    @Test("An instant reads as the wall clock of the given zone")
    func readsInstants() throws {
        let instant = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z
        let seoul = LocalDateTime(instant, in: try #require(TimeZone(identifier: "Asia/Seoul")))
        #expect(seoul.iso8601 == "2023-11-15T07:13:20")
    }
}
