import CExif
import CImageShims
import DossierCore
import Foundation

/// An EXIF block read and rewritten with libexif.
///
/// Loaded so as to change as little as possible: unknown tags are kept, the specification is not
/// "fixed" (which would add and drop tags), and maker notes are left as they are. Not thread-safe;
/// each import uses its own.
final class ExifBlock {
    private let data: UnsafeMutablePointer<ExifData>

    /// What libexif may allocate to read one block. Every entry's value is copied out of the
    /// block, and a hostile block's entries all point at the same bytes (see exif_memory.c); a
    /// real one (libexif reads at most 64 KiB of it) takes a small part of this budget.
    static let loadBudget = 4 << 20

    /// How much of a TIFF structure libexif reads its directories from: it caps what it is given
    /// at 0xFFFE bytes, its `Exif\0\0` header included (the largest JPEG APP1 segment). Past
    /// them it reads only a maker note, which nothing that dates a photo asks for.
    static let directoryBytes = 0xFFFE - 6

    /// Parses a TIFF-structured EXIF block (no `Exif\0\0` prefix). Nil when libexif finds no tags
    /// in it at all: such a block is left untouched, as EXIF is advisory. Entries past
    /// `loadBudget` are not read.
    init?(tiff: [UInt8]) {
        guard let memory = exif_mem_new(dossier_exif_alloc, dossier_exif_realloc, dossier_exif_free) else { return nil }
        defer { exif_mem_unref(memory) }
        guard let data = exif_data_new_mem(memory) else { return nil }
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_set_option(data, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE)
        let payload = JPEGSegments.exifPrefix + tiff
        dossier_exif_budget_begin(ExifBlock.loadBudget)
        payload.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        dossier_exif_budget_end()
        self.data = data
        guard contents.contains(where: { ($0?.pointee.count ?? 0) > 0 }) else { return nil }
    }

    deinit {
        exif_data_unref(data)
    }

    /// The raw Orientation tag of the main picture (IFD0), if present.
    var orientationTag: Int? {
        guard let entry = exif_content_get_entry(contents[Int(EXIF_IFD_0.rawValue)], EXIF_TAG_ORIENTATION)
        else { return nil }
        return integer(entry)
    }

    var dateTimeOriginal: LocalDateTime? { date(EXIF_TAG_DATE_TIME_ORIGINAL) }

    var dateTime: LocalDateTime? { date(EXIF_TAG_DATE_TIME) }

    var dateTimeDigitized: LocalDateTime? { date(EXIF_TAG_DATE_TIME_DIGITIZED) }

    /// The date tags whose text is written but is no date (`2020:02:30 10:00:00`, `2019:13:01`):
    /// what a warning names, as `EXIF DateTimeOriginal ("...")`. A clock never set (zeros,
    /// blanks) is no date either, and says nothing.
    var datesThatAreNone: [String] {
        [(EXIF_TAG_DATE_TIME_ORIGINAL, "DateTimeOriginal"), (EXIF_TAG_DATE_TIME_DIGITIZED, "DateTimeDigitized"),
         (EXIF_TAG_DATE_TIME, "DateTime")].compactMap { tag, name in
            guard let written = text(tag)?.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0"))),
                  written.contains(where: { $0.isNumber && $0 != "0" }), LocalDateTime(exif: written) == nil
            else { return nil }
            return "EXIF \(name) (\"\(written)\")"
        }
    }

    /// The offset from UTC of DateTimeDigitized's wall clock.
    var offsetTimeDigitized: UTCOffset? { offset(EXIF_TAG_OFFSET_TIME_DIGITIZED) }

    /// The offset from UTC of DateTimeOriginal's wall clock (EXIF 2.31, `+09:00`).
    var offsetTimeOriginal: UTCOffset? { offset(EXIF_TAG_OFFSET_TIME_ORIGINAL) }

    /// The offset from UTC of DateTime's wall clock.
    var offsetTime: UTCOffset? { offset(EXIF_TAG_OFFSET_TIME) }

    /// The embedded JPEG thumbnail, if any.
    var thumbnail: [UInt8]? {
        guard let bytes = data.pointee.data, data.pointee.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(data.pointee.size)))
    }

    /// Makes the block describe an upright picture of `width` x `height`: every Orientation tag
    /// set to 1, the pixel-dimension tags updated, and the thumbnail replaced (nil removes it).
    func makeUpright(width: Int, height: Int, thumbnail newThumbnail: [UInt8]?) {
        for content in contents {
            if let entry = exif_content_get_entry(content, EXIF_TAG_ORIENTATION) { setInteger(entry, 1) }
        }
        let picture = [contents[Int(EXIF_IFD_0.rawValue)], contents[Int(EXIF_IFD_EXIF.rawValue)]]
        for content in picture {
            for (tag, value) in [(EXIF_TAG_PIXEL_X_DIMENSION, width), (EXIF_TAG_PIXEL_Y_DIMENSION, height),
                                 (EXIF_TAG_IMAGE_WIDTH, width), (EXIF_TAG_IMAGE_LENGTH, height)] {
                if let entry = exif_content_get_entry(content, tag) { setInteger(entry, value) }
            }
        }
        replaceThumbnail(with: newThumbnail)
    }

    /// The block as libexif writes it: `Exif\0\0` followed by the TIFF structure.
    func serialized() -> [UInt8]? {
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &buffer, &size)
        guard let buffer, size > 0 else { return nil }
        defer { free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    private var contents: [UnsafeMutablePointer<ExifContent>?] {
        let ifd = data.pointee.ifd
        return [ifd.0, ifd.1, ifd.2, ifd.3, ifd.4]
    }

    private var byteOrder: ExifByteOrder { exif_data_get_byte_order(data) }

    private func replaceThumbnail(with bytes: [UInt8]?) {
        // The block's allocator (dossier_exif_*) is calloc/realloc/free: malloc's memory is what
        // ExifData frees its thumbnail with.
        free(data.pointee.data)
        data.pointee.data = nil
        data.pointee.size = 0
        guard let bytes, !bytes.isEmpty, let copy = malloc(bytes.count)?.assumingMemoryBound(to: UInt8.self)
        else { return }
        copy.initialize(from: bytes, count: bytes.count)
        data.pointee.data = copy
        data.pointee.size = UInt32(bytes.count)
    }

    private func date(_ tag: ExifTag) -> LocalDateTime? {
        text(tag).flatMap(LocalDateTime.init(exif:))
    }

    private func offset(_ tag: ExifTag) -> UTCOffset? {
        text(tag).flatMap(UTCOffset.init(parsing:))
    }

    private func text(_ tag: ExifTag) -> String? {
        guard let entry = dossier_exif_data_get_entry(data, tag), entry.pointee.format == EXIF_FORMAT_ASCII,
              let bytes = entry.pointee.data, entry.pointee.size > 0
        else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)), as: UTF8.self)
    }

    private func integer(_ entry: UnsafeMutablePointer<ExifEntry>) -> Int? {
        guard entry.pointee.components >= 1, let bytes = entry.pointee.data else { return nil }
        switch entry.pointee.format {
        case EXIF_FORMAT_SHORT where entry.pointee.size >= 2: return Int(exif_get_short(bytes, byteOrder))
        case EXIF_FORMAT_LONG where entry.pointee.size >= 4: return Int(exif_get_long(bytes, byteOrder))
        default: return nil
        }
    }

    private func setInteger(_ entry: UnsafeMutablePointer<ExifEntry>, _ value: Int) {
        guard entry.pointee.components >= 1, let bytes = entry.pointee.data else { return }
        switch entry.pointee.format {
        case EXIF_FORMAT_SHORT where entry.pointee.size >= 2:
            exif_set_short(bytes, byteOrder, ExifShort(clamping: value))
        case EXIF_FORMAT_LONG where entry.pointee.size >= 4:
            exif_set_long(bytes, byteOrder, ExifLong(clamping: value))
        default:
            break
        }
    }
}

// MARK: - TIFFStructure

/// The entries of a TIFF-structured EXIF block, read straight from its bytes in its byte order:
/// enough to find a value's exact place (to rewrite it in place) or a maker note's bytes.
struct TIFFStructure {
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        /// Where the entry's 4-byte value field lies in the block.
        let valueFieldOffset: Int
    }

    let bytes: [UInt8]
    let bigEndian: Bool

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        self.bytes = bytes
        guard uint16(at: 2) == 42 else { return nil }
    }

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return bigEndian ? UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
                         : UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset])
    }

    func uint32(at offset: Int) -> UInt32? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
    }

    /// IFD0's offset.
    var firstDirectory: Int? { uint32(at: 4).map(Int.init) }

    /// The entries of the directory at `offset`; nil if it does not fit the block.
    func entries(at offset: Int) -> [Entry]? {
        guard let count = uint16(at: offset) else { return nil }
        var entries: [Entry] = []
        for index in 0..<Int(count) {
            let start = offset + 2 + index * 12
            guard let tag = uint16(at: start), let type = uint16(at: start + 2), let values = uint32(at: start + 4)
            else { return nil }
            entries.append(Entry(tag: tag, type: type, count: values, valueFieldOffset: start + 8))
        }
        return entries
    }

    /// Where an entry's values lie: in its value field when they fit in 4 bytes, else at the
    /// offset the field holds. Nil when they lie outside the block.
    func valueRange(of entry: Entry) -> Range<Int>? {
        let unit: Int
        switch entry.type {
        case 1, 2, 6, 7: unit = 1
        case 3, 8: unit = 2
        case 4, 9, 11, 13: unit = 4
        case 5, 10, 12: unit = 8
        default: return nil
        }
        let (length, overflow) = Int(entry.count).multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        let start = length <= 4 ? entry.valueFieldOffset : uint32(at: entry.valueFieldOffset).map(Int.init)
        guard let start, start + length <= bytes.count else { return nil }
        return start..<start + length
    }

    /// Where the image data its directories point at ends (strips, tiles, an embedded JPEG),
    /// following IFD0's chain and every SubIFD (a raw's full-size data lies in one): past the
    /// file's end, the file was cut short. Nil when no directory names any.
    func imageDataEnd() -> Int? {
        var end: Int?
        var pending = firstDirectory.map { [$0] } ?? []
        var seen: Set<Int> = []
        while let directory = pending.popLast(), seen.count < 64 {
            guard seen.insert(directory).inserted, let entries = entries(at: directory) else { continue }
            let values = { (tag: UInt16) -> [Int] in
                guard let entry = entries.first(where: { $0.tag == tag }), let range = valueRange(of: entry) else { return [] }
                switch entry.type {
                case 3: return stride(from: range.lowerBound, to: range.upperBound, by: 2).compactMap { uint16(at: $0).map(Int.init) }
                case 4, 13: return stride(from: range.lowerBound, to: range.upperBound, by: 4).compactMap { uint32(at: $0).map(Int.init) }
                default: return []
                }
            }
            for (offsets, counts) in [(UInt16(273), UInt16(279)), (324, 325), (513, 514)] {
                for (offset, count) in zip(values(offsets), values(counts)) where count > 0 {
                    end = max(end ?? 0, offset + count)
                }
            }
            pending += values(330).filter { $0 >= 8 }
            if let next = uint32(at: directory + 2 + entries.count * 12), next > 0 { pending.append(Int(next)) }
        }
        return end
    }
}

// MARK: - AppleMakerNote

/// The one thing Dossier reads from Apple's maker note: the content identifier an iPhone gives a
/// Live Photo's still (tag 0x0011, which exiftool names MediaGroupUUID), the same as its movie's
/// `com.apple.quicktime.content.identifier`.
///
/// The maker note (EXIF tag 0x927C) starts `Apple iOS\0`, a version, `MM`, then a big-endian
/// directory whose offsets count from the maker note's own start.
enum AppleMakerNote {
    static let signature = Array("Apple iOS".utf8) + [0]
    static let makerNoteTag: UInt16 = 0x927C
    static let exifDirectoryTag: UInt16 = 0x8769
    static let contentIdentifierTag: UInt16 = 0x0011

    static func contentIdentifier(inExif tiff: [UInt8]) -> String? {
        guard let exif = TIFFStructure(tiff), let first = exif.firstDirectory,
              let pointer = exif.entries(at: first)?.first(where: { $0.tag == exifDirectoryTag }),
              let exifDirectory = exif.uint32(at: pointer.valueFieldOffset).map(Int.init),
              let entry = exif.entries(at: exifDirectory)?.first(where: { $0.tag == makerNoteTag }),
              let range = exif.valueRange(of: entry)
        else { return nil }
        let note = Array(tiff[range])
        guard note.starts(with: signature), note.count >= 16, note[12] == 0x4D, note[13] == 0x4D else { return nil }
        // The directory reads as TIFF: a big-endian header stands in for the note's first bytes.
        var asTIFF = note
        asTIFF.replaceSubrange(0..<8, with: [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x0E])
        guard let structure = TIFFStructure(asTIFF),
              let identifier = structure.entries(at: 14)?.first(where: { $0.tag == contentIdentifierTag && $0.type == 2 }),
              let value = structure.valueRange(of: identifier)
        else { return nil }
        let text = String(decoding: asTIFF[value].prefix { $0 != 0 }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
