import DossierCore

extension FiledAsItIsHandler {
    /// Camera raws: DNG, Canon CR2 and CR3, Nikon NEF, Sony ARW, Olympus ORF, Panasonic RW2,
    /// Fujifilm RAF; recognised by their own signatures (CR3 by its `crx ` brand, never as a
    /// movie), dated by the EXIF they carry (a RAF's from its embedded JPEG, a CR3's from its
    /// `CMT2` box), filed under `photos/` byte for byte, with a rendition made of the preview
    /// the camera embedded, upright (`RawRendition`). One shot with a JPEG (`IMG_0001.CR2` and
    /// `IMG_0001.JPG`, taken within seconds) is filed beside it under its name, and has no
    /// rendition: the camera's JPEG is its picture.
    public static let raws = FiledAsItIsHandler(
        name: "raw",
        summary: "camera raws (DNG, CR2, CR3, NEF, ARW, ORF, RW2, RAF), recognised by content, filed as they are, "
            + "with a rendition of the camera's preview, or beside the camera's JPEG",
        formats: [.dng, .cr2, .cr3, .nef, .arw, .orf, .rw2, .raf],
        recognise: FiledAsItIsHandler.rawFormat(head:),
        exif: { format, bytes in
            switch format {
            case .raf: return FiledAsItIsHandler.rafExif(bytes)
            case .cr3: return nil
            case .orf, .rw2:
                return FiledAsItIsHandler.withTIFFMagic(bytes)
            default: return bytes
            }
        },
        ownDates: { format, bytes in format == .cr3 ? FiledAsItIsHandler.cr3Dates(bytes) : [] },
        render: RawRendition.rendition(of:))

    static func rawFormat(head: [UInt8]) -> PhotoFormat? {
        if head.has("FUJIFILMCCD-RAW") { return .raf }
        if ISOFileType(head: head)?.majorBrand == "crx " { return .cr3 }
        if hasOlympusMagic(head) { return .orf }
        if hasPanasonicMagic(head) { return .rw2 }
        guard let tiff = TIFFStructure(head) else { return nil }
        if head.has("CR", at: 8) { return .cr2 }
        guard let first = tiff.firstDirectory, let entries = tiff.entries(at: first) else { return nil }
        // DNGVersion in IFD0 makes a DNG, whatever camera made it.
        if entries.contains(where: { $0.tag == 0xC612 }) { return .dng }
        let make = entries.first { $0.tag == 0x010F }.flatMap { entry in
            tiff.valueRange(of: entry).map { String(decoding: head[$0].prefix { $0 != 0 }, as: UTF8.self).uppercased() }
        } ?? ""
        // A Nikon or Sony raw keeps its data in SubIFDs; a Nikon film scanner's TIFF has none.
        guard entries.contains(where: { $0.tag == 0x014A }) else { return nil }
        if make.hasPrefix("NIKON") { return .nef }
        if make.hasPrefix("SONY") { return .arw }
        return nil
    }

    /// A RAF's embedded JPEG (its offset and length, big-endian, at bytes 84 and 88) and that
    /// JPEG's EXIF.
    static func rafExif(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 92 else { return nil }
        let offset = bytes[84..<88].reduce(0) { $0 << 8 | Int($1) }, length = bytes[88..<92].reduce(0) { $0 << 8 | Int($1) }
        guard offset >= 92, length > 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return JPEGSegments.exifTIFF(in: Array(bytes[offset..<(offset + length)]))
    }

    /// Canon's `uuid` box in a CR3's `moov`, which holds its TIFF structures.
    static let canonMetadataBox: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B,
                                            0x6A, 0x48]

    /// A CR3's dates: its EXIF IFD is a TIFF structure of its own, `CMT2` in Canon's `uuid` box
    /// (IFD0 is `CMT1`), whose first directory holds DateTimeOriginal, DateTimeDigitized and
    /// their offsets, as exiftool reads them.
    static func cr3Dates(_ bytes: [UInt8]) -> [CaptureDate] {
        let reader = ISOBoxReader(bytes)
        guard let moov = try? reader.firstTopLevel("moov"), let boxes = try? reader.children(of: moov),
              let canon = boxes.first(where: {
                  // A uuid box's payload starts after its 16-byte user type.
                  $0.type == "uuid" && (try? bytes.read(at: $0.payloadStart - 16, length: 16)) == canonMetadataBox
              }),
              let inside = try? reader.children(of: canon),
              let cmt2 = inside.first(where: { $0.type == "CMT2" }), let payload = try? reader.payload(of: cmt2),
              let tiff = TIFFStructure(payload), let first = tiff.firstDirectory, let entries = tiff.entries(at: first)
        else { return [] }
        func text(_ tag: UInt16) -> String? {
            guard let entry = entries.first(where: { $0.tag == tag }), entry.type == 2, let range = tiff.valueRange(of: entry)
            else { return nil }
            return String(decoding: payload[range].prefix { $0 != 0 }, as: UTF8.self)
        }
        var dates: [CaptureDate] = []
        for (tag, offsetTag, origin) in [(UInt16(0x9003), UInt16(0x9011), CaptureDate.Origin.exifDateTimeOriginal),
                                         (0x9004, 0x9012, .exifDateTimeDigitized)] {
            guard let taken = text(tag).flatMap(LocalDateTime.init(exif:)) else { continue }
            dates.append(CaptureDate(taken, origin: origin, utcOffset: text(offsetTag).flatMap(UTCOffset.init(parsing:))))
        }
        return dates
    }

    /// Olympus's and Panasonic's raws are TIFF structures with their maker's own number where
    /// TIFF has 42.
    static func hasOlympusMagic(_ head: [UInt8]) -> Bool { head.has("IIRO") || head.has("IIRS") || head.has("MMOR") }
    static func hasPanasonicMagic(_ head: [UInt8]) -> Bool { head.has([0x49, 0x49, 0x55, 0x00]) }

    /// The bytes with TIFF's 42 where an Olympus or Panasonic raw has its own number (the same
    /// directories follow); other bytes as they are. Nil when too short to hold a header.
    static func withTIFFMagic(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count > 8 else { return nil }
        guard hasOlympusMagic(bytes) || hasPanasonicMagic(bytes) else { return bytes }
        return Array(bytes[0..<2]) + (bytes[0] == 0x49 ? [0x2A, 0x00] : [0x00, 0x2A]) + Array(bytes[4...])
    }
}
