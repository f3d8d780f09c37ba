import DossierCore
import Foundation

/// What the importers read from a photo's metadata: how to turn it and when it was taken.
struct PhotoMetadata {
    let orientation: Orientation
    let captureDate: CaptureDate
    let warnings: [String]

    static let unreadableExifWarning = "the EXIF block could not be read; the photo is filed as stored"

    /// The date is the first plausible one of, in this order: EXIF DateTimeOriginal (with
    /// OffsetTimeOriginal, when the camera wrote it), DateTimeDigitized (with its offset), XMP's
    /// exif:DateTimeOriginal, xmp:CreateDate and photoshop:DateCreated, IPTC's DateCreated and
    /// TimeCreated, EXIF DateTime (with OffsetTime), the PNG tIME chunk, the container's own date
    /// (a sound's ID3 recording time, a RIFF file's, Matroska's), a date in the file's name,
    /// the file's mtime; tIME and mtime are instants, named on the wall clock of the library's
    /// time zone. A date outside the years 1826 to next year is passed over, and a photo with
    /// none other is dated by the time it was imported (`importedAt`): its warnings say so.
    init(exif tiff: [UInt8]?, xmp: String? = nil, iptc: CaptureDate? = nil, pngTime: Date?,
         containerDates: [CaptureDate] = [], containerDatesThatAreNone: [String] = [], source: SourceFile, timeZone: TimeZone,
         importedAt now: Date = Date()) {
        var warnings: [String] = []
        // A TIFF or a raw is its own EXIF block, megabytes long: only the part libexif reads the
        // directories from is copied behind the header it wants.
        let block = tiff.flatMap { ExifBlock(tiff: $0.count > ExifBlock.directoryBytes ? Array($0.prefix(ExifBlock.directoryBytes)) : $0) }
        if tiff != nil && block == nil { warnings.append(PhotoMetadata.unreadableExifWarning) }
        orientation = Orientation(exifValue: block?.orientationTag ?? 1)
        var candidates: [CaptureDate] = []
        if let original = block?.dateTimeOriginal {
            candidates.append(CaptureDate(original, origin: .exifDateTimeOriginal, utcOffset: block?.offsetTimeOriginal))
        }
        if let digitized = block?.dateTimeDigitized {
            candidates.append(CaptureDate(digitized, origin: .exifDateTimeDigitized, utcOffset: block?.offsetTimeDigitized))
        }
        if let xmp { candidates += XMPDates.candidates(in: xmp) }
        if let iptc { candidates.append(iptc) }
        if let dateTime = block?.dateTime {
            candidates.append(CaptureDate(dateTime, origin: .exifDateTime, utcOffset: block?.offsetTime))
        }
        if let pngTime { candidates.append(CaptureDate(pngTime, in: timeZone, origin: .pngTime)) }
        candidates += containerDates
        if let named = FileNameDate.captureDate(in: source.fileName) { candidates.append(named) }
        candidates.append(CaptureDate(source.modificationDate, in: timeZone, origin: .fileModificationTime))
        let trusted = CaptureDate.mostTrusted(of: candidates, importedAt: now, in: timeZone)
        captureDate = trusted.date
        // A date written that is none (`2020:02:30`) is passed over like one outside the years, and said.
        let none = (block?.datesThatAreNone ?? []) + containerDatesThatAreNone
        if !none.isEmpty {
            warnings.append("its \(none.joined(separator: " and its ")) \(none.count == 1 ? "is" : "are") no date: "
                + "dated by its \(captureDate.origin.described)")
        }
        self.warnings = warnings + trusted.warnings
    }
}

// MARK: - FileNameDate

/// The date and time phones, messengers and tools write into file names, the last place a
/// date is looked for before the file's mtime: `IMG_20170101_010101.jpg`,
/// `PXL_20230405_101112345.jpg` (milliseconds after the seconds), `VID_20200130_095718.mp4`,
/// `Screenshot_2020-01-30-09-57-18.png`, `telegram_2020-01-30_09-57-18.jpg`,
/// `date_20180101_010101.jpg`, and a day alone (`IMG-20200130-WA0001.jpg`, WhatsApp), taken as
/// its midnight. A date is eight digits (`20170101`) or three groups (`2020-01-30`, `_` or `.`
/// apart too) standing alone, not part of a longer number; a time follows it after one separator.
enum FileNameDate {
    static func captureDate(in name: String) -> CaptureDate? {
        let bytes = Array(name.utf8)
        var runs: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            guard isDigit(bytes[index]) else { index += 1; continue }
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            runs.append(start..<index)
        }
        return runs.indices.lazy.compactMap { date(startingAt: $0, runs: runs, bytes: bytes) }.first
    }

    /// A date (and time) whose first digits are `runs[first]`.
    private static func date(startingAt first: Int, runs: [Range<Int>], bytes: [UInt8]) -> CaptureDate? {
        let run = runs[first]
        var day: (year: Int, month: Int, day: Int)
        var next: Int
        switch run.count {
        case 8, 14, 17:
            // `20170101`, or the date and time run together (`20170101010101`, with milliseconds).
            day = (number(bytes, run.lowerBound, 4), number(bytes, run.lowerBound + 4, 2), number(bytes, run.lowerBound + 6, 2))
            if run.count > 8 {
                let clock = run.lowerBound + 8
                return make(day, (number(bytes, clock, 2), number(bytes, clock + 2, 2), number(bytes, clock + 4, 2)))
            }
            next = first + 1
        case 4:
            // `2020-01-30`: three groups with one separator, the same twice.
            guard first + 2 < runs.count, runs[first + 1].count == 2, runs[first + 2].count == 2,
                  let separator = separator(between: run, runs[first + 1], bytes: bytes), "-_.".utf8.contains(separator),
                  self.separator(between: runs[first + 1], runs[first + 2], bytes: bytes) == separator
            else { return nil }
            day = (number(bytes, run.lowerBound, 4), number(bytes, runs[first + 1].lowerBound, 2),
                   number(bytes, runs[first + 2].lowerBound, 2))
            next = first + 3
        default:
            return nil
        }
        guard LocalDateTime(year: day.year, month: day.month, day: day.day) != nil else { return nil }
        // A time after one separator: `_010101`, `_101112345`, or `-09-57-18`, `_09.57.18`.
        if next < runs.count, let gap = separator(between: runs[next - 1], runs[next], bytes: bytes), "-_ T.".utf8.contains(gap) {
            let clock = runs[next]
            if clock.count == 6 || clock.count == 9,
               let found = make(day, (number(bytes, clock.lowerBound, 2), number(bytes, clock.lowerBound + 2, 2),
                                      number(bytes, clock.lowerBound + 4, 2))) {
                return found
            }
            if clock.count == 2, next + 2 < runs.count, runs[next + 1].count == 2, runs[next + 2].count == 2,
               let between = separator(between: clock, runs[next + 1], bytes: bytes), "-_.:".utf8.contains(between),
               separator(between: runs[next + 1], runs[next + 2], bytes: bytes) == between,
               let found = make(day, (number(bytes, clock.lowerBound, 2), number(bytes, runs[next + 1].lowerBound, 2),
                                      number(bytes, runs[next + 2].lowerBound, 2))) {
                return found
            }
        }
        return make(day, (0, 0, 0))
    }

    private static func make(_ day: (year: Int, month: Int, day: Int), _ time: (Int, Int, Int)) -> CaptureDate? {
        guard let local = LocalDateTime(year: day.year, month: day.month, day: day.day, hour: time.0, minute: time.1,
                                        second: time.2)
        else { return nil }
        return CaptureDate(local, origin: .fileName)
    }

    /// The one byte between two runs of digits, when exactly one lies between them.
    private static func separator(between left: Range<Int>, _ right: Range<Int>, bytes: [UInt8]) -> UInt8? {
        right.lowerBound == left.upperBound + 1 ? bytes[left.upperBound] : nil
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int {
        bytes[start..<(start + count)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
