import Foundation
import Glibc
import Testing
@testable import DossierCore

/// A time read from a file is whatever its writer put there: far past 2262, before year 1, a
/// clock never set. None of them stops an import, and none dates a photo unsaid.
@Suite("Times read from files")
struct HostileTimeTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let seoul = TimeZone(identifier: "Asia/Seoul")!
    /// 2024-01-13T05:38:53Z.
    static let now = Date(timeIntervalSince1970: 1_705_124_333)

    @Test("A stat time in nanoseconds is exact within an Int64, and held at its ends beyond it")
    func statTimesSaturate() {
        #expect(SourceFile.nanoseconds(of: timespec(tv_sec: 1_700_000_000, tv_nsec: 123)) == 1_700_000_000_000_000_123)
        #expect(SourceFile.nanoseconds(of: timespec(tv_sec: -1, tv_nsec: 500_000_000)) == -500_000_000)
        // 2300-01-01T00:00:00Z, and the largest and smallest times a file system can hold.
        #expect(SourceFile.nanoseconds(of: timespec(tv_sec: 10_413_792_000, tv_nsec: 0)) == .max)
        #expect(SourceFile.nanoseconds(of: timespec(tv_sec: .max, tv_nsec: 999_999_999)) == .max)
        #expect(SourceFile.nanoseconds(of: timespec(tv_sec: .min, tv_nsec: 0)) == .min)
        // The last second that fits, with nanoseconds that carry it over.
        #expect(SourceFile.nanoseconds(of: timespec(tv_sec: 9_223_372_036, tv_nsec: 999_999_999)) == .max)
    }

    @Test("A status proves nothing while its change time is within the file system's grain of when it was taken: three seconds for whole seconds, 50 ms for finer times; a change time in the future never proves anything")
    func racyStatuses() {
        let taken: Int64 = 1_700_000_010_250_000_000
        // Whole seconds (ext4 of 128-byte inodes, FAT): an edit later in that second, or FAT's two, looks the same.
        #expect(SourceFile.statusIsRacy(changeTime: 1_700_000_010_000_000_000, takenAt: taken))
        #expect(SourceFile.statusIsRacy(changeTime: 1_700_000_008_000_000_000, takenAt: taken))
        #expect(!SourceFile.statusIsRacy(changeTime: 1_700_000_007_000_000_000, takenAt: taken))
        // Finer times: a clock tick.
        #expect(SourceFile.statusIsRacy(changeTime: 1_700_000_010_210_000_001, takenAt: taken))
        #expect(!SourceFile.statusIsRacy(changeTime: 1_700_000_010_150_000_001, takenAt: taken))
        #expect(SourceFile.statusIsRacy(changeTime: .max, takenAt: taken))
        #expect(!SourceFile.statusIsRacy(changeTime: .min, takenAt: taken))
        #expect(SourceFile.statusIsRacy(changeTime: nil, takenAt: taken))
        #expect(SourceFile.statusIsRacy(changeTime: 1_700_000_007_000_000_000, takenAt: nil))
    }

    @Test("An instant whose wall clock would leave the years 1 to 9999 reads as the nearest end", arguments: [
        (253_402_297_200.0, "Asia/Seoul", "9999-12-31T23:59:59"),  // a PNG's tIME of 9999-12-31 23:00 UTC, in +09:00
        (9.2e18, "UTC", "9999-12-31T23:59:59"),  // a movie header's 64-bit time
        (.infinity, "UTC", "9999-12-31T23:59:59"),
        (-62_135_596_800.0, "America/Los_Angeles", "0001-01-01T00:00:00"),
        (-1e18, "UTC", "0001-01-01T00:00:00"),
        (.nan, "UTC", "0001-01-01T00:00:00"),
    ])
    func instantsOutsideTheCalendar(_ seconds: Double, _ zone: String, _ expected: String) throws {
        let local = LocalDateTime(Date(timeIntervalSince1970: seconds), in: try #require(TimeZone(identifier: zone)))
        #expect(local.iso8601 == expected)
    }

    @Test("An instant well inside the calendar reads as before")
    func ordinaryInstants() {
        #expect(LocalDateTime(Date(timeIntervalSince1970: 253_402_297_200 - 86_400 * 7), in: HostileTimeTests.seoul).iso8601
            == "9999-12-25T08:00:00")
        #expect(LocalDateTime(Date(timeIntervalSince1970: -2_208_988_800), in: HostileTimeTests.utc).iso8601 == "1900-01-01T00:00:00")
    }

    @Test("The most trusted plausible date dates a photo, unsaid when it is the first")
    func firstPlausibleDate() throws {
        let exif = CaptureDate(try #require(LocalDateTime(year: 2023, month: 5, day: 7)), origin: .exifDateTimeOriginal)
        let mtime = CaptureDate(HostileTimeTests.now, in: HostileTimeTests.utc, origin: .fileModificationTime)
        let trusted = CaptureDate.mostTrusted(of: [exif, mtime], importedAt: HostileTimeTests.now, in: HostileTimeTests.utc)
        #expect(trusted.date == exif)
        #expect(trusted.warnings.isEmpty)
    }

    @Test("A date before 1826 or after next year is passed over, and the warning names it and what dated the photo instead")
    func implausibleDatesArePassedOver() throws {
        let exif = CaptureDate(try #require(LocalDateTime(year: 2999, month: 1, day: 1)), origin: .exifDateTimeOriginal)
        let png = CaptureDate(Date(timeIntervalSince1970: 253_402_297_200), in: HostileTimeTests.seoul, origin: .pngTime)
        let mtime = CaptureDate(HostileTimeTests.now, in: HostileTimeTests.seoul, origin: .fileModificationTime)
        let trusted = CaptureDate.mostTrusted(of: [exif, png, mtime], importedAt: HostileTimeTests.now, in: HostileTimeTests.seoul)
        #expect(trusted.date == mtime)
        // Imported in 2024: the years 1826 to 2025 are plausible.
        #expect(trusted.warnings == ["its EXIF DateTimeOriginal (2999-01-01T00:00:00) and its PNG tIME are outside the years "
            + "1826 to 2025: dated by its file's modification time"])
    }

    @Test("With no plausible date, the photo is dated by the time it was imported, and the warning says its date is unknown")
    func noPlausibleDate() {
        let mtime = CaptureDate(Date(timeIntervalSince1970: Double(Int64.max) / 1e9), in: HostileTimeTests.seoul,
                                origin: .fileModificationTime)
        let trusted = CaptureDate.mostTrusted(of: [mtime], importedAt: HostileTimeTests.now, in: HostileTimeTests.seoul)
        #expect(trusted.date.origin == .importTime)
        #expect(trusted.date.iso8601 == "2024-01-13T14:38:53+09:00")
        #expect(trusted.warnings == ["the date it was taken is unknown (its file's modification time is outside the years "
            + "1826 to 2025): dated by the time it was imported, 2024-01-13T14:38:53+09:00"])
    }
}
