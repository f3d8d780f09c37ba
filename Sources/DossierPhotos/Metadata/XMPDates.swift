import DossierCore
import Foundation

/// The dates an XMP packet holds (a JPEG's APP1 `http://ns.adobe.com/xap/1.0/` segment), under
/// the properties cameras and editors write them as: `exif:DateTimeOriginal`, `xmp:CreateDate`,
/// `photoshop:DateCreated`, each as an attribute (`exif:DateTimeOriginal="..."`) or an element.
/// Read by the prefixes every writer uses for those namespaces; not an XML parser: a property
/// whose value cannot be read is passed over, never guessed at.
enum XMPDates {
    /// Each date the packet gives, in order of trust.
    static func candidates(in packet: String) -> [CaptureDate] {
        let bytes = Array(packet.utf8)
        let properties: [(String, CaptureDate.Origin)] = [
            ("exif:DateTimeOriginal", .xmpDateTimeOriginal), ("xmp:CreateDate", .xmpCreateDate),
            ("photoshop:DateCreated", .xmpPhotoshopDateCreated),
        ]
        return properties.compactMap { property, origin in
            guard let text = value(of: property, in: bytes), let (dateTime, offset) = dateTime(xmp: text) else { return nil }
            return CaptureDate(dateTime, origin: origin, utcOffset: offset)
        }
    }

    /// The text of `property`, written as an attribute or as an element's first text.
    static func value(of property: String, in bytes: [UInt8]) -> String? {
        let name = Array(property.utf8)
        var start = 0
        while let found = firstIndex(of: name, in: bytes, from: start) {
            start = found + name.count
            // A whole name: `<exif:DateTimeOriginal>` or `exif:DateTimeOriginal="`, not a longer one.
            guard found > 0, bytes[found - 1] == UInt8(ascii: "<") || isSpace(bytes[found - 1]) else { continue }
            var position = start
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: "=") {
                position += 1
                while position < bytes.count, isSpace(bytes[position]) { position += 1 }
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
                else { continue }
                let quote = bytes[position]
                guard let end = bytes[(position + 1)...].firstIndex(of: quote) else { return nil }
                return String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
            }
            guard bytes[found - 1] == UInt8(ascii: "<"), let open = bytes[position...].firstIndex(of: UInt8(ascii: ">"))
            else { continue }
            // The first text inside it that is not blank (an `rdf:Seq` of one date puts it in `rdf:li`).
            var cursor = open + 1
            while cursor < bytes.count {
                let end = bytes[cursor...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                let text = String(decoding: bytes[cursor..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty { return text }
                guard end < bytes.count, let next = bytes[end...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                // Its own closing tag ends it empty.
                if bytes[(end + 1)...].starts(with: [UInt8(ascii: "/")] + name) { return nil }
                cursor = next + 1
            }
            return nil
        }
        return nil
    }

    /// XMP's date (ISO 8601 as XMP allows it): `2017-01-01T01:01:01`, with a fraction and an
    /// offset (`+09:00`, `Z`) or without, only to the minute, or only a day (midnight is taken).
    static func dateTime(xmp text: String) -> (LocalDateTime, UTCOffset?)? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let (day, time) = trimmed.firstIndex(of: "T").map { (trimmed[..<$0], trimmed[trimmed.index(after: $0)...]) }
            ?? (trimmed[...], "")
        let dateFields = day.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard dateFields.count == 3, let year = dateFields[0], let month = dateFields[1], let dayOfMonth = dateFields[2],
              day.count == 10
        else { return nil }
        guard !time.isEmpty else {
            return LocalDateTime(year: year, month: month, day: dayOfMonth).map { ($0, nil) }
        }
        let offsetStart = time.firstIndex { $0 == "+" || $0 == "-" || $0 == "Z" }
        let clock = offsetStart.map { time[..<$0] } ?? time
        let offset = offsetStart.flatMap { UTCOffset(parsing: time[$0...]) }
        if offsetStart != nil && offset == nil { return nil }
        let clockFields = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard clockFields.count == 2 || clockFields.count == 3, let hour = Int(clockFields[0]), let minute = Int(clockFields[1])
        else { return nil }
        // Seconds may carry a fraction, which the filed name has no room for.
        let second = clockFields.count == 3 ? clockFields[2].split(separator: ".").first.flatMap { Int($0) } : 0
        guard let second, let local = LocalDateTime(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute,
                                                    second: second)
        else { return nil }
        return (local, offset)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == first && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
