/// Walks a JPEG's marker segments (up to the first scan) to find and replace its EXIF block.
/// Splicing bytes keeps everything else in the file exactly as it was.
enum JPEGSegments {
    static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]

    struct Location {
        /// The whole segment, from its 0xFF marker through its payload.
        let segment: Range<Int>
        /// The payload, starting with `Exif\0\0`.
        let payload: Range<Int>
    }

    /// The first APP1 segment carrying EXIF, if the markers before the first scan hold one.
    static func exifLocation(in bytes: [UInt8]) -> Location? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var position = 2
        while position + 1 < bytes.count {
            guard bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            if marker == 0xDA || marker == 0xD9 { return nil }  // start of scan, end of image
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }  // no length
            guard position + 3 < bytes.count else { return nil }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let end = position + 2 + length
            guard length >= 2, end <= bytes.count else { return nil }
            let payload = (position + 4)..<end
            if marker == 0xE1, bytes[payload].starts(with: exifPrefix) {
                return Location(segment: position..<end, payload: payload)
            }
            position = end
        }
        return nil
    }

    /// Just past the first image's end-of-image marker: where the bytes some files carry after
    /// the picture begin (a motion photo's video, a Samsung trailer, a second image). Nil when
    /// the image never ends (a truncated file). Walks the marker segments, and through each
    /// scan's entropy-coded data to the next marker that is neither a stuffed 0xFF00 nor a
    /// restart marker (progressive files have several scans).
    static func imageEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var position = 2
        while position + 1 < bytes.count {
            guard bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            if marker == 0xD9 { return position + 2 }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }  // no length
            guard position + 3 < bytes.count else { return nil }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2, position + 2 + length <= bytes.count else { return nil }
            position += 2 + length
            guard marker == 0xDA else { continue }
            while let next = bytes[position...].firstIndex(of: 0xFF), next + 1 < bytes.count {
                let following = bytes[next + 1]
                if following == 0x00 || (0xD0...0xD7).contains(following) {
                    position = next + 2
                } else if following == 0xFF {
                    position = next + 1
                } else {
                    position = next
                    break
                }
            }
            guard position < bytes.count, bytes[position] == 0xFF else { return nil }
        }
        return nil
    }

    /// The bytes after the first image's end-of-image marker (empty when there are none).
    static func trailingBytes(of bytes: [UInt8]) -> ArraySlice<UInt8> {
        guard let end = imageEnd(in: bytes), end < bytes.count else { return [] }
        return bytes[end...]
    }

    /// The EXIF payload without its `Exif\0\0` prefix: a TIFF structure.
    static func exifTIFF(in bytes: [UInt8]) -> [UInt8]? {
        guard let location = exifLocation(in: bytes) else { return nil }
        return Array(bytes[location.payload].dropFirst(exifPrefix.count))
    }

    /// The file with its EXIF segment's payload replaced by `payload` (which starts with `Exif\0\0`).
    static func replacingExif(in bytes: [UInt8], with payload: [UInt8]) throws(PhotoError) -> [UInt8] {
        guard payload.count + 2 <= 0xFFFF else { throw .exifTooLarge(size: payload.count) }
        guard let location = exifLocation(in: bytes) else { return bytes }
        let length = payload.count + 2
        var result = Array(bytes[..<location.segment.lowerBound])
        result.reserveCapacity(bytes.count - location.segment.count + payload.count + 4)
        result += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
        result += payload
        result += bytes[location.segment.upperBound...]
        return result
    }
}
