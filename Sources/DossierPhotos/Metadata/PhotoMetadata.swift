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
    /// instants, named on the wall clock of the library's time zone.
    init(exif tiff: [UInt8]?, pngTime: Date?, source: SourceFile, timeZone: TimeZone) {
        var warnings: [String] = []
        let block = tiff.flatMap(ExifBlock.init(tiff:))
        if tiff != nil && block == nil { warnings.append(PhotoMetadata.unreadableExifWarning) }
        orientation = Orientation(exifValue: block?.orientationTag ?? 1)
        if let original = block?.dateTimeOriginal {
            captureDate = CaptureDate(original, origin: .exifDateTimeOriginal, utcOffset: block?.offsetTimeOriginal)
        } else if let dateTime = block?.dateTime {
            captureDate = CaptureDate(dateTime, origin: .exifDateTime, utcOffset: block?.offsetTime)
        } else if let pngTime {
            captureDate = CaptureDate(pngTime, in: timeZone, origin: .pngTime)
        } else {
            captureDate = CaptureDate(source.modificationDate, in: timeZone, origin: .fileModificationTime)
        }
        self.warnings = warnings
    }
}
