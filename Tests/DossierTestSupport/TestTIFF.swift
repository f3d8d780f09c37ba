import Foundation

/// Little-endian TIFF structures for tests that need real pictures in them: an RGB TIFF a
/// scanner might write, a DNG as cameras and phones write them (its IFD0 a JPEG preview, its
/// raw data in a SubIFD, its dates in an EXIF IFD).
public enum TestTIFF {
    public struct Entry {
        let tag: Int
        let type: Int
        let count: Int
        let value: [UInt8]

        public static func short(_ tag: Int, _ values: Int...) -> Entry {
            Entry(tag: tag, type: 3, count: values.count, value: values.flatMap { le($0, 2) })
        }
        public static func long(_ tag: Int, _ values: Int...) -> Entry {
            Entry(tag: tag, type: 4, count: values.count, value: values.flatMap { le($0, 4) })
        }
        public static func ascii(_ tag: Int, _ text: String) -> Entry {
            Entry(tag: tag, type: 2, count: text.utf8.count + 1, value: Array(text.utf8) + [0])
        }
        public static func bytes(_ tag: Int, _ values: [UInt8]) -> Entry { Entry(tag: tag, type: 1, count: values.count, value: values) }
        public static func signedRationals(_ tag: Int, _ values: [Int]) -> Entry {
            Entry(tag: tag, type: 10, count: values.count / 2, value: values.flatMap { le($0, 4) })
        }
    }

    public static func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

    /// A file of IFDs (the first is IFD0, the others reached by the pointers their entries hold)
    /// and then blobs (image data). `entries` makes each IFD's entries from where everything lies:
    /// the IFDs' offsets, then the blobs'. Laid out until the offsets settle.
    /// With `directoriesLast`, the blobs come first and the IFDs after them, as some writers lay
    /// a file out (IFD0's offset in the header then points past the first bytes).
    public static func file(ifdCount: Int, blobs: [[UInt8]], directoriesLast: Bool = false,
                            entries: ([Int]) -> [[Entry]]) -> [UInt8] {
        var offsets = [Int](repeating: 0, count: ifdCount + blobs.count)
        var bytes: [UInt8] = []
        for _ in 0..<4 {
            bytes = Array("II".utf8) + [42, 0] + le(directoriesLast ? offsets[0] : 8, 4)
            var next = offsets
            func writeBlobs() {
                for (index, blob) in blobs.enumerated() {
                    next[ifdCount + index] = bytes.count
                    bytes += blob + (blob.count % 2 == 1 ? [0] : [])
                }
            }
            if directoriesLast { writeBlobs() }
            for (index, ifd) in entries(offsets).enumerated() {
                next[index] = bytes.count
                bytes += serialised(ifd, at: bytes.count)
            }
            if !directoriesLast { writeBlobs() }
            if next == offsets { break }
            offsets = next
        }
        return bytes
    }

    private static func serialised(_ entries: [Entry], at start: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var head = le(sorted.count, 2), extra: [UInt8] = []
        let valuesStart = start + 2 + sorted.count * 12 + 4
        for entry in sorted {
            head += le(entry.tag, 2) + le(entry.type, 2) + le(entry.count, 4)
            if entry.value.count <= 4 {
                head += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                head += le(valuesStart + extra.count, 4)
                extra += entry.value + (entry.value.count % 2 == 1 ? [0] : [])
            }
        }
        return head + le(0, 4) + extra
    }

    /// An uncompressed TIFF of 8-bit RGB `pixels`, stored as they are, with an Orientation tag.
    public static func rgb(pixels: [UInt8], width: Int, height: Int, orientation: Int = 1) -> [UInt8] {
        file(ifdCount: 1, blobs: [pixels]) { offsets in
            [[.long(256, width), .long(257, height), .short(258, 8, 8, 8), .short(259, 1), .short(262, 2),
              .long(273, offsets[1]), .short(274, orientation), .short(277, 3), .long(278, height),
              .long(279, pixels.count), .short(284, 1)]]
        }
    }

    /// A DNG: IFD0 the camera's preview (`preview`, `previewWidth` x `previewHeight`, as stored:
    /// a JPEG, or 8-bit RGB when `previewIsJPEG` is false) with the raw's Orientation and Make, a
    /// SubIFD of 16-bit CFA data, an EXIF IFD with DateTimeOriginal when `taken` is given.
    public static func dng(preview: [UInt8], previewWidth: Int, previewHeight: Int, previewIsJPEG: Bool = true,
                           orientation: Int, taken: String? = "2019:04:05 06:07:08", directoriesLast: Bool = false) -> [UInt8] {
        let width = 64, height = 32
        let raw = (0..<(width * height * 2)).map { UInt8(truncatingIfNeeded: $0 * 37 + $0 / 128 * 11) }
        return file(ifdCount: 3, blobs: [preview, raw], directoriesLast: directoriesLast) { offsets in
            let identity = [10000, 10000, 0, 10000, 0, 10000, 0, 10000, 10000, 10000, 0, 10000, 0, 10000, 0, 10000, 10000, 10000]
            return [
                [.long(254, 1), .long(256, previewWidth), .long(257, previewHeight), .short(258, 8, 8, 8),
                 .short(259, previewIsJPEG ? 7 : 1), .short(262, previewIsJPEG ? 6 : 2), .ascii(271, "Dossier"), .ascii(272, "Test DNG"), .long(273, offsets[3]),
                 .short(274, orientation), .short(277, 3), .long(278, previewHeight), .long(279, preview.count),
                 .long(330, offsets[2]), .long(34665, offsets[1]), .bytes(50706, [1, 4, 0, 0]),
                 .ascii(50708, "Dossier Test DNG"), .signedRationals(50721, identity)],
                taken.map { [.ascii(36867, $0)] } ?? [.short(41729, 1)],
                [.long(254, 0), .long(256, width), .long(257, height), .short(258, 16), .short(259, 1), .short(262, 32803),
                 .long(273, offsets[4]), .short(277, 1), .long(278, height), .long(279, raw.count), .short(33421, 2, 2),
                 .bytes(33422, [0, 1, 1, 2])],
            ]
        }
    }
}
