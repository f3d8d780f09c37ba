import CImageShims
import DossierCore
import Foundation

/// Swift's door to LibRaw, through the C shims: a raw's own facts (its turn, its date) and the
/// preview the camera embedded in it. The raw data itself is never decoded: it is filed as it is.
public enum RawCodec {
    public struct Facts: Sendable, Equatable {
        /// How the camera says to show it, as an EXIF orientation.
        public let orientation: Orientation
        /// When it was taken, on the camera's wall clock; nil when the raw does not say.
        public let taken: LocalDateTime?
    }

    /// A raw's embedded preview, as stored (not yet turned).
    public enum Preview: Sendable {
        case jpeg([UInt8])
        case rgb([UInt8], width: Int, height: Int)
    }

    static let formatName = "raw"

    public static func facts(of content: PhotoContent) throws(PhotoError) -> Facts {
        var facts = dossier_raw_facts()
        var status = dossier_status()
        let result = content.withCInput { data, size, path in dossier_raw_read_facts(data, size, path, &facts, &status) }
        guard result == 0 else { throw status.error(format: formatName) }
        return Facts(facts)
    }

    public static func preview(of content: PhotoContent) throws(PhotoError) -> (Facts, Preview) {
        var facts = dossier_raw_facts()
        var picture = dossier_raw_picture()
        var status = dossier_status()
        let result = content.withCInput { data, size, path in
            dossier_raw_preview(data, size, path, &facts, &picture, &status)
        }
        let bytes = picture.pixels.takeBytes()
        guard result == 0 else { throw status.error(format: formatName) }
        let preview: Preview = picture.is_jpeg != 0 ? .jpeg(bytes)
            : .rgb(bytes, width: Int(picture.width), height: Int(picture.height))
        return (Facts(facts), preview)
    }
}

extension RawCodec.Facts {
    init(_ facts: dossier_raw_facts) {
        // LibRaw's flip bits (1 left-right, 2 top-bottom, 4 transpose) as the EXIF orientation
        // that asks for the same turn: dcraw's table "50132467" read backwards.
        let exifValue = [0: 1, 1: 2, 2: 4, 3: 3, 4: 5, 5: 8, 6: 6, 7: 7][Int(facts.flip)] ?? 1
        orientation = Orientation(exifValue: exifValue)
        taken = RawCodec.Facts.wallClock(facts.timestamp)
    }

    /// LibRaw reads the camera's date with mktime, as this process's local time; localtime gives
    /// the same wall clock back (but for the hour a daylight-saving change skips, which it moves).
    static func wallClock(_ timestamp: Int64) -> LocalDateTime? {
        guard timestamp > 0 else { return nil }
        var seconds = time_t(timestamp)
        var fields = tm()
        guard localtime_r(&seconds, &fields) != nil else { return nil }
        return LocalDateTime(year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
                             hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec))
    }
}
