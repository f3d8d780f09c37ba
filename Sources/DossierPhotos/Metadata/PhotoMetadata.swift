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
