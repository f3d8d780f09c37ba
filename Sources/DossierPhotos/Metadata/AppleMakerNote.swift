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
