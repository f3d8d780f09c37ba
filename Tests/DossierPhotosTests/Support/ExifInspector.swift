import CExif

/// Reads back what a filed photo's EXIF says, with libexif used directly.
struct ExifInspector {
    let orientation: Int?
    let dateTimeOriginal: String?
    let make: String?
    let pixelXDimension: Int?
    let pixelYDimension: Int?
    let thumbnail: [UInt8]?

    /// `payload` starts with `Exif\0\0`.
    init?(app1Payload payload: [UInt8]) {
        guard let data = exif_data_new() else { return nil }
        defer { exif_data_unref(data) }
        payload.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        let order = exif_data_get_byte_order(data)
        func entry(_ tag: ExifTag) -> UnsafeMutablePointer<ExifEntry>? { dossier_exif_data_get_entry(data, tag) }
        func integer(_ tag: ExifTag) -> Int? {
            guard let entry = entry(tag), let bytes = entry.pointee.data else { return nil }
            switch entry.pointee.format {
            case EXIF_FORMAT_SHORT: return Int(exif_get_short(bytes, order))
            case EXIF_FORMAT_LONG: return Int(exif_get_long(bytes, order))
            default: return nil
            }
        }
        func text(_ tag: ExifTag) -> String? {
            guard let entry = entry(tag), let bytes = entry.pointee.data else { return nil }
            let buffer = UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))
            return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        }
        orientation = integer(EXIF_TAG_ORIENTATION)
        dateTimeOriginal = text(EXIF_TAG_DATE_TIME_ORIGINAL)
        make = text(EXIF_TAG_MAKE)
        pixelXDimension = integer(EXIF_TAG_PIXEL_X_DIMENSION)
        pixelYDimension = integer(EXIF_TAG_PIXEL_Y_DIMENSION)
        if let bytes = data.pointee.data, data.pointee.size > 0 {
            thumbnail = Array(UnsafeBufferPointer(start: bytes, count: Int(data.pointee.size)))
        } else {
            thumbnail = nil
        }
    }

    /// The EXIF of a JPEG file, found by walking its segments.
    init?(jpeg: [UInt8]) {
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            let payload = Array(jpeg[(position + 4)..<min(jpeg.count, position + 2 + length)])
            if jpeg[position + 1] == 0xE1, payload.starts(with: Array("Exif".utf8) + [0, 0]) {
                self.init(app1Payload: payload)
                return
            }
            position += 2 + length
        }
        return nil
    }
}
