import DossierCore
import Foundation

/// What the importers read from a photo's metadata: how to turn it and when it was taken.
struct PhotoMetadata {
    let orientation: Orientation
    let captureDate: CaptureDate
    let warnings: [String]

    static let unreadableExifWarning = "the EXIF block could not be read; the photo is filed as stored"

    /// The date is EXIF DateTimeOriginal (with OffsetTimeOriginal, when the camera wrote it), else
    /// DateTime (with OffsetTime), else the PNG tIME chunk, else the file's mtime; the last two are
    /// instants, named on the wall clock of the library's time zone. A date outside the years
    /// 1900 to 2199 is passed over, and a photo with none other is dated by the time it was
    /// imported (`importedAt`): its warnings say so.
    init(exif tiff: [UInt8]?, pngTime: Date?, source: SourceFile, timeZone: TimeZone, importedAt now: Date = Date()) {
        var warnings: [String] = []
        let block = tiff.flatMap(ExifBlock.init(tiff:))
        if tiff != nil && block == nil { warnings.append(PhotoMetadata.unreadableExifWarning) }
        orientation = Orientation(exifValue: block?.orientationTag ?? 1)
        var candidates: [CaptureDate] = []
        if let original = block?.dateTimeOriginal {
            candidates.append(CaptureDate(original, origin: .exifDateTimeOriginal, utcOffset: block?.offsetTimeOriginal))
        }
        if let dateTime = block?.dateTime {
            candidates.append(CaptureDate(dateTime, origin: .exifDateTime, utcOffset: block?.offsetTime))
        }
        if let pngTime { candidates.append(CaptureDate(pngTime, in: timeZone, origin: .pngTime)) }
        candidates.append(CaptureDate(source.modificationDate, in: timeZone, origin: .fileModificationTime))
        let trusted = CaptureDate.mostTrusted(of: candidates, importedAt: now, in: timeZone)
        captureDate = trusted.date
        self.warnings = warnings + trusted.warnings
    }
}
