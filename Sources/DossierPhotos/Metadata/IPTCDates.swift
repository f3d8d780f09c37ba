import DossierCore

/// IPTC's DateCreated (2:55, `CCYYMMDD`) and TimeCreated (2:60, `HHMMSS±HHMM`), from the
/// IPTC-NAA resource (0x0404) of a JPEG's Photoshop image resources (APP13), where newsroom
/// tools, scanners and older editors put them.
enum IPTCDates {
    /// The date the resources give; nil when they hold no readable DateCreated.
    static func captureDate(inPhotoshopResources resources: ArraySlice<UInt8>) -> CaptureDate? {
        guard let found = resource(0x0404, in: Array(resources)) else { return nil }
        let iptc = Array(found)
        var date: String?
        var time: String?
        var position = 0
        // Each dataset: 0x1C, record, dataset, a 2-byte length (an extended one, high bit set, is
        // for large values, never a date: the walk stops there), the value.
        while position + 5 <= iptc.count, iptc[position] == 0x1C {
            let record = iptc[position + 1], dataset = iptc[position + 2]
            let length = Int(iptc[position + 3]) << 8 | Int(iptc[position + 4])
            guard length & 0x8000 == 0, position + 5 + length <= iptc.count else { break }
            let value = String(decoding: iptc[(position + 5)..<(position + 5 + length)], as: UTF8.self)
            if record == 2 && dataset == 55 { date = value }
            if record == 2 && dataset == 60 { time = value }
            position += 5 + length
        }
        guard let date, date.count == 8, date.allSatisfy(\.isASCIIDigit) else { return nil }
        let digits = Array(date.utf8).map { Int($0 - UInt8(ascii: "0")) }
        let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
        let month = digits[4] * 10 + digits[5], day = digits[6] * 10 + digits[7]
        var hour = 0, minute = 0, second = 0
        var offset: UTCOffset?
        if let time, time.count >= 6, time.prefix(6).allSatisfy(\.isASCIIDigit) {
            let clock = Array(time.utf8.prefix(6)).map { Int($0 - UInt8(ascii: "0")) }
            (hour, minute, second) = (clock[0] * 10 + clock[1], clock[2] * 10 + clock[3], clock[4] * 10 + clock[5])
            offset = time.count == 11 ? UTCOffset(parsing: time.dropFirst(6)) : nil
        }
        guard let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return CaptureDate(local, origin: .iptcDateCreated, utcOffset: offset)
    }

    /// The data of Photoshop image resource `id`: `8BIM`, the id, a Pascal name padded to an
    /// even length, a 4-byte size, the data padded to an even length.
    static func resource(_ wanted: UInt16, in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var position = 0
        while position + 8 <= bytes.count, bytes[position..<(position + 4)].elementsEqual("8BIM".utf8) {
            let id = UInt16(bytes[position + 4]) << 8 | UInt16(bytes[position + 5])
            let nameLength = Int(bytes[position + 6])
            var cursor = position + 6 + (nameLength + 2) / 2 * 2
            guard cursor + 4 <= bytes.count else { return nil }
            let size = bytes[cursor..<(cursor + 4)].reduce(0) { $0 << 8 | Int($1) }
            cursor += 4
            guard size <= bytes.count - cursor else { return nil }
            if id == wanted { return bytes[cursor..<(cursor + size)] }
            position = cursor + (size + 1) / 2 * 2
        }
        return nil
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
