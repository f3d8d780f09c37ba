import CImageShims
import DossierCore

/// Swift's door to LibRaw, through the C shims: how a raw is shown (its turn) and the preview
/// the camera embedded in it. The raw data itself is never decoded: it is filed as it is.
public enum RawCodec {
    public struct Facts: Sendable, Equatable {
        /// How the camera says to show it, as an EXIF orientation.
        public let orientation: Orientation
    }

    /// A raw's embedded preview, as stored (not yet turned).
    public enum Preview: Sendable {
        case jpeg([UInt8])
        case rgb([UInt8], width: Int, height: Int)
    }

    static let formatName = "raw"

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
    }
}
