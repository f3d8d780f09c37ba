import DossierCore

/// Walks a JPEG's marker segments (up to the first scan) to find and replace its EXIF block.
/// Splicing bytes keeps everything else in the file exactly as it was.
enum JPEGSegments {
    static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]
    /// The largest EXIF payload an APP1 segment holds: its length field counts itself, 65535 - 2.
    static let maximumExifPayload = 65533

    struct Location {
        /// The whole segment, from its 0xFF marker through its payload.
        let segment: Range<Int>
        /// The payload, starting with `Exif\0\0`.
        let payload: Range<Int>
    }

    /// The first APP1 segment carrying EXIF, if the markers before the first scan hold one.
    static func exifLocation(in bytes: [UInt8]) -> Location? {
        firstSegment(marker: 0xE1, startingWith: exifPrefix, in: bytes)
    }

    /// The first segment with `marker` whose payload starts with `prefix`, among the markers
    /// before the first scan.
    static func firstSegment(marker wanted: UInt8, startingWith prefix: [UInt8], in bytes: [UInt8]) -> Location? {
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
            if marker == wanted, bytes[payload].starts(with: prefix) {
                return Location(segment: position..<end, payload: payload)
            }
            position = end
        }
        return nil
    }

    static let xmpPrefix: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let photoshopPrefix: [UInt8] = Array("Photoshop 3.0".utf8) + [0]

    /// The XMP packet of the APP1 segment that holds it, as text.
    static func xmpPacket(in bytes: [UInt8]) -> String? {
        guard let location = firstSegment(marker: 0xE1, startingWith: xmpPrefix, in: bytes) else { return nil }
        return String(decoding: bytes[location.payload].dropFirst(xmpPrefix.count), as: UTF8.self)
    }

    /// The Photoshop image resources of the APP13 segment (where IPTC's fields live).
    static func photoshopResources(in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard let location = firstSegment(marker: 0xED, startingWith: photoshopPrefix, in: bytes) else { return nil }
        return bytes[location.payload].dropFirst(photoshopPrefix.count)
    }

    /// Where the first scan (or the end of the image) starts, if the markers before it lie
    /// within `bytes`: nil when they run past its end.
    static func firstScan(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var position = 2
        while position + 1 < bytes.count {
            guard bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            if marker == 0xDA || marker == 0xD9 { return position }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }  // no length
            guard position + 3 < bytes.count else { return nil }
            position += 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]))
        }
        return nil
    }

    /// The bytes of a large photo's file before its first scan: every marker segment its
    /// metadata can be in. Read a quarter MiB first and more as the markers need, up to 16 MiB.
    static func header(of file: ScratchFile) throws -> [UInt8] {
        var count = 1 << 18
        while true {
            let head = try file.read(at: 0, count: count)
            if head.count < count || firstScan(in: head) != nil || count >= 1 << 24 { return head }
            count *= 4
        }
    }

    /// The EXIF payload without its `Exif\0\0` prefix: a TIFF structure.
    static func exifTIFF(in bytes: [UInt8]) -> [UInt8]? {
        guard let location = exifLocation(in: bytes) else { return nil }
        return Array(bytes[location.payload].dropFirst(exifPrefix.count))
    }

    /// The file with its EXIF segment's payload replaced by `payload` (which starts with `Exif\0\0`).
    static func replacingExif(in bytes: [UInt8], with payload: [UInt8]) throws(PhotoError) -> [UInt8] {
        guard let location = exifLocation(in: bytes) else { return bytes }
        let segment = try exifSegment(payload)
        var result = Array(bytes[..<location.segment.lowerBound])
        result.reserveCapacity(bytes.count - location.segment.count + segment.count)
        result += segment
        result += bytes[location.segment.upperBound...]
        return result
    }

    /// A large photo's file with its EXIF segment's payload replaced, in a new scratch file.
    static func replacingExif(in file: ScratchFile, with payload: [UInt8]) throws -> ScratchFile {
        guard let location = exifLocation(in: try header(of: file)) else { return file }
        return try file.replacing(Int64(location.segment.lowerBound)..<Int64(location.segment.upperBound),
                                  with: try exifSegment(payload))
    }

    /// An APP1 segment holding `payload`.
    private static func exifSegment(_ payload: [UInt8]) throws(PhotoError) -> [UInt8] {
        guard payload.count + 2 <= 0xFFFF else { throw .exifTooLarge(size: payload.count) }
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}

// MARK: - MotionPhotoMarkers

/// Whether a photo is a motion photo: a still with a short video inside it, which Dossier keeps
/// byte for byte (a JPEG's bytes after its end-of-image marker are carried over when it is
/// turned; a HEIF is never rewritten). Google writes `GCamera:MotionPhoto` (older phones
/// `GCamera:MicroVideo`) in the XMP; Samsung, the same XMP and, in HEIC, a top-level `mpvd` box
/// (older Galaxy phones, only a `MotionPhoto_Data` block in the trailer they append to a JPEG).
enum MotionPhotoMarkers {
    /// XMP lies in the file's first segments or boxes: only this much of the head is searched.
    static let searchedHead = 256 << 10

    static let xmpMarkers: [[UInt8]] = [
        "GCamera:MotionPhoto=\"1\"", "GCamera:MicroVideo=\"1\"", "<GCamera:MotionPhoto>1<", "<GCamera:MicroVideo>1<",
    ].map { Array($0.utf8) }

    static func isMotionPhoto(_ content: PhotoContent, format: PhotoFormat) -> Bool {
        let bytes = content.randomAccess
        if format.isHEIF, let boxes = try? ISOBoxReader(bytes).topLevel(), boxes.contains(where: { $0.type == "mpvd" }) {
            return true
        }
        if samsungTrailerNames(bytes).contains("MotionPhoto_Data") { return true }
        let length = Int(min(bytes.byteCount, Int64(searchedHead)))
        guard let head = try? bytes.read(at: 0, length: length) else { return false }
        return xmpMarkers.contains { head.containsSequence($0) }
    }

    /// The names of the blocks in Samsung's trailer, which older Galaxy phones append to a JPEG
    /// (the video of a motion photo is the block `MotionPhoto_Data`). The file ends with a
    /// directory's length (little-endian) and `SEFT`; the directory starts `SEFH`, a version and
    /// a count, then 12 bytes an entry: two zero bytes, a type, how far before the directory its
    /// block starts, and its length. Each block starts with two zero bytes, the type, the name's
    /// length and the name.
    static func samsungTrailerNames(_ bytes: any RandomAccessBytes) -> [String] {
        let size = bytes.byteCount
        guard size >= 8, let tail = try? bytes.read(at: size - 8, length: 8), tail[4..<8].elementsEqual("SEFT".utf8)
        else { return [] }
        let directoryLength = Int64(littleEndian: tail[0..<4])
        let directoryStart = size - 8 - directoryLength
        guard directoryLength >= 12, directoryLength <= 1 << 20, directoryStart >= 0,
              let directory = try? bytes.read(at: directoryStart, length: Int(directoryLength)),
              directory[0..<4].elementsEqual("SEFH".utf8)
        else { return [] }
        let count = min(Int(Int64(littleEndian: directory[8..<12])), (directory.count - 12) / 12)
        return (0..<count).compactMap { index in
            let entry = 12 + index * 12
            let blockStart = directoryStart - Int64(littleEndian: directory[entry + 4..<entry + 8])
            guard blockStart >= 0, let header = try? bytes.read(at: blockStart, length: 8) else { return nil }
            let nameLength = Int(Int64(littleEndian: header[4..<8]))
            guard nameLength > 0, nameLength <= 256, let name = try? bytes.read(at: blockStart + 8, length: nameLength)
            else { return nil }
            return String(decoding: name, as: UTF8.self)
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs anywhere in the bytes.
    func containsSequence(_ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= count else { return false }
        var index = startIndex
        while let found = self[index...].firstIndex(of: first) {
            guard found + needle.count <= count else { return false }
            if self[found..<found + needle.count].elementsEqual(needle) { return true }
            index = found + 1
        }
        return false
    }
}

extension Int64 {
    /// The unsigned little-endian integer in `bytes` (at most 4 of them here).
    init<C: Collection>(littleEndian bytes: C) where C.Element == UInt8 {
        self = bytes.reversed().reduce(0) { ($0 << 8) | Int64($1) }
    }
}
