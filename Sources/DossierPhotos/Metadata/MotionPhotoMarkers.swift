import DossierCore

/// Whether a photo is a motion photo: a still with a short video inside it, which Dossier keeps
/// byte for byte (a JPEG's bytes after its end-of-image marker are carried over when it is
/// turned; a HEIF is never rewritten). Google writes `GCamera:MotionPhoto` (older phones
/// `GCamera:MicroVideo`) in the XMP; Samsung, the same XMP and, in HEIC, a top-level `mpvd` box.
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
        let length = Int(min(bytes.byteCount, Int64(searchedHead)))
        guard let head = try? bytes.read(at: 0, length: length) else { return false }
        return xmpMarkers.contains { head.containsSequence($0) }
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
