import DossierCore

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
