import DossierCore
import Foundation
import Testing

@Suite("Offsets from UTC, as photos and movies write them")
struct UTCOffsetTests {
    @Test("Reads Z, +HH:MM, +HHMM and +HH, with the NULs and spaces EXIF pads with", arguments: [
        ("+09:00", 540), ("-08:00", -480), ("-0800", -480), ("+05:45", 345), ("+0530", 330), ("-03", -180),
        ("Z", 0), ("+00:00", 0), ("+03:00\0", 180), (" +01:00 ", 60), ("-12:00", -720), ("+14:00", 840),
    ])
    func reads(_ text: String, _ minutes: Int) {
        #expect(UTCOffset(parsing: text)?.minutes == minutes)
    }

    @Test("Refuses blanks, a camera's unknown zone and anything out of range or malformed", arguments: [
        "", "   :  ", "\0\0\0\0\0\0", "09:00", "+9:00", "+09:60", "+19:00", "+0900Z", "+09:00:00", "z", "+0x:00", "--08:00",
    ])
    func refuses(_ text: String) {
        #expect(UTCOffset(parsing: text) == nil)
    }

    @Test("Writes the ISO 8601 form, and a capture date with it when known")
    func writes() throws {
        #expect(UTCOffset(minutes: -480)?.description == "-08:00")
        #expect(UTCOffset(minutes: 345)?.description == "+05:45")
        #expect(UTCOffset(minutes: 0)?.description == "+00:00")
        #expect(UTCOffset(minutes: 18 * 60 + 1) == nil)
        let wallClock = try #require(LocalDateTime(year: 2024, month: 6, day: 1, hour: 9, minute: 30, second: 0))
        #expect(CaptureDate(wallClock, origin: .exifDateTimeOriginal, utcOffset: UTCOffset(minutes: 540)).iso8601
            == "2024-06-01T09:30:00+09:00")
        #expect(CaptureDate(wallClock, origin: .exifDateTimeOriginal).iso8601 == "2024-06-01T09:30:00")
    }

    @Test("An instant gets the library time zone's offset at that moment, summer time included")
    func instants() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let july = Date(timeIntervalSince1970: 1_719_828_000)  // 2024-07-01 10:00:00 UTC
        let january = Date(timeIntervalSince1970: 1_704_103_200)  // 2024-01-01 10:00:00 UTC
        #expect(CaptureDate(july, in: berlin, origin: .fileModificationTime).iso8601 == "2024-07-01T12:00:00+02:00")
        #expect(CaptureDate(january, in: berlin, origin: .fileModificationTime).iso8601 == "2024-01-01T11:00:00+01:00")
    }
}
