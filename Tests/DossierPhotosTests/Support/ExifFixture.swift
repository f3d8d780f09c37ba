/// Builds EXIF blocks (TIFF structures) byte by byte, independently of libexif, so tests can
/// give the importer exactly the tags they mean.
struct ExifFixture {
    var bigEndian = true
    var orientation: Int? = 1
    var make: String? = "Dossier Test Camera"
    var dateTimeOriginal: String? = "2023:05:07 14:30:09"
    var dateTime: String? = nil
    /// DateTimeDigitized (0x9004) and its OffsetTimeDigitized (0x9012).
    var dateTimeDigitized: String? = nil
    var offsetTimeDigitized: String? = nil
    /// OffsetTimeOriginal (0x9011), as EXIF 2.31 cameras write it: `+09:00`.
    var offsetTimeOriginal: String? = nil
    var pixelSize: (width: Int, height: Int)? = nil
    /// A JPEG thumbnail for IFD1.
    var thumbnail: [UInt8]? = nil
    /// The EXIF IFD's MakerNote (tag 0x927C), as a camera writes it.
    var makerNote: [UInt8]? = nil
    /// IFD0's DNGVersion (0xC612), as every DNG has.
    var dngVersion = false
    var subIFDs = false

    /// Apple's maker note as an iPhone writes it for a Live Photo's still: `Apple iOS\0`, version 1,
    /// `MM`, and a directory (offsets from the note's start) holding the content identifier (0x0011).
    static func appleMakerNote(contentIdentifier: String) -> [UInt8] {
        let value = Array(contentIdentifier.utf8) + [0]
        let be16 = { (v: Int) in [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let be32 = { (v: Int) in [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        // Two entries, the identifier's text after the directory: 14 + 2 + 2 * 12 + 4 = 44.
        return Array("Apple iOS".utf8) + [0] + [0, 1] + Array("MM".utf8) + be16(2)
            + be16(0x0001) + be16(9) + be32(1) + be32(10)
            + be16(0x0011) + be16(2) + be32(value.count) + be32(44)
            + be32(0) + value
    }

    /// The JPEG APP1 payload: `Exif\0\0` and the TIFF structure.
    var app1Payload: [UInt8] { Array("Exif".utf8) + [0, 0] + tiff }

    var tiff: [UInt8] {
        var ifd0: [Entry] = []
        if let orientation { ifd0.append(.short(0x0112, orientation)) }
        if let make { ifd0.append(.ascii(0x010F, make)) }
        if let dateTime { ifd0.append(.ascii(0x0132, dateTime)) }
        if dngVersion { ifd0.append(.undefined(0xC612, [1, 4, 0, 0])) }
        // A raw's SubIFDs: where its full-size data lies (here pointing nowhere).
        if subIFDs { ifd0.append(.long(0x014A, 0)) }
        var exifIFD: [Entry] = []
        if let dateTimeOriginal { exifIFD.append(.ascii(0x9003, dateTimeOriginal)) }
        if let dateTimeDigitized { exifIFD.append(.ascii(0x9004, dateTimeDigitized)) }
        if let offsetTimeOriginal { exifIFD.append(.ascii(0x9011, offsetTimeOriginal)) }
        if let offsetTimeDigitized { exifIFD.append(.ascii(0x9012, offsetTimeDigitized)) }
        if let makerNote { exifIFD.append(.undefined(0x927C, makerNote)) }
        if let pixelSize {
            exifIFD.append(.long(0xA002, pixelSize.width))
            exifIFD.append(.long(0xA003, pixelSize.height))
        }
        var writer = TIFFWriter(bigEndian: bigEndian)
        return writer.write(ifd0: ifd0, exif: exifIFD, thumbnail: thumbnail)
    }

    enum Entry {
        case short(UInt16, Int)
        case long(UInt16, Int)
        case ascii(UInt16, String)
        case undefined(UInt16, [UInt8])

        var tag: UInt16 {
            switch self {
            case .short(let tag, _), .long(let tag, _), .ascii(let tag, _), .undefined(let tag, _): return tag
            }
        }
    }
}

/// Lays out IFD0 -> EXIF IFD, and IFD1 with a thumbnail, in one TIFF block.
private struct TIFFWriter {
    let bigEndian: Bool
    var bytes: [UInt8] = []

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    mutating func write(ifd0: [ExifFixture.Entry], exif: [ExifFixture.Entry], thumbnail: [UInt8]?) -> [UInt8] {
        bytes = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        bytes += u32(8)
        // IFD0 gets one more entry: the pointer to the EXIF IFD (tag 0x8769), patched once known.
        let first = writeIFD(ifd0 + [.long(0x8769, 0)], pointerTag: 0x8769)
        patch(first.pointer, with: bytes.count)
        _ = writeIFD(exif, pointerTag: nil)
        if let thumbnail {
            patch(first.next, with: bytes.count)
            let ifd1 = writeIFD([.short(0x0103, 6), .long(0x0201, 0), .long(0x0202, thumbnail.count)],
                                pointerTag: 0x0201)
            patch(ifd1.pointer, with: bytes.count)
            bytes += thumbnail
        }
        return bytes
    }

    /// Writes an IFD (entries sorted by tag) and its out-of-line values; returns where the value
    /// of `pointerTag` and the next-IFD offset sit, so they can be patched.
    private mutating func writeIFD(_ entries: [ExifFixture.Entry], pointerTag: UInt16?) -> (pointer: Int, next: Int) {
        let sorted = entries.sorted { $0.tag < $1.tag }
        let start = bytes.count
        var valuesOffset = start + 2 + sorted.count * 12 + 4
        var extra: [UInt8] = []
        var pointerSlot = 0
        bytes += u16(sorted.count)
        for entry in sorted {
            bytes += u16(Int(entry.tag))
            switch entry {
            case .short(_, let value):
                bytes += u16(3) + u32(1) + u16(value) + [0, 0]
            case .long(let tag, let value):
                if tag == pointerTag { pointerSlot = bytes.count + 6 }
                bytes += u16(4) + u32(1) + u32(value)
            case .ascii, .undefined:
                let (type, value): (Int, [UInt8]) = switch entry {
                case .ascii(_, let text): (2, Array(text.utf8) + [0])
                case .undefined(_, let data): (7, data)
                default: (0, [])
                }
                bytes += u16(type) + u32(value.count)
                if value.count <= 4 {
                    bytes += value + Array(repeating: 0, count: 4 - value.count)
                } else {
                    bytes += u32(valuesOffset)
                    extra += value
                    if value.count % 2 == 1 { extra.append(0) }
                    valuesOffset = start + 2 + sorted.count * 12 + 4 + extra.count
                }
            }
        }
        let nextSlot = bytes.count
        bytes += u32(0)
        bytes += extra
        return (pointerSlot, nextSlot)
    }

    private mutating func patch(_ slot: Int, with value: Int) {
        let encoded = u32(value)
        for index in 0..<4 { bytes[slot + index] = encoded[index] }
    }

    private func u16(_ value: Int) -> [UInt8] {
        let high = UInt8(value >> 8 & 0xFF), low = UInt8(value & 0xFF)
        return bigEndian ? [high, low] : [low, high]
    }

    private func u32(_ value: Int) -> [UInt8] {
        let parts = [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return bigEndian ? parts : parts.reversed()
    }
}
