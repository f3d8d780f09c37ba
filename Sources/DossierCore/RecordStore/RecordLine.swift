/// A record as one JSON line of a year file, written in a fixed field order
/// (`{"id":…,"subject":…,"date":…,…}`) so that merging can read a line's sort key without
/// parsing the rest of it.
public enum RecordLine {
    /// The record as a JSON object followed by "\n".
    public static func encode(_ record: Record) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + record.text.utf8.count)
        out += #"{"id":"#.utf8
        appendString(record.id, to: &out)
        out += #","subject":"#.utf8
        appendString(record.subject.path, to: &out)
        out += #","date":"#.utf8
        appendString(record.date.iso8601, to: &out)
        out += #","kind":"#.utf8
        appendString(record.kind, to: &out)
        out += #","measurements":["#.utf8
        for (index, measurement) in record.measurements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += #"{"name":"#.utf8
            appendString(measurement.name, to: &out)
            out += #","value":"#.utf8
            out += number(measurement.value).utf8
            out += #","unit":"#.utf8
            appendString(measurement.unit.rawValue, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out += #"],"text":"#.utf8
        appendString(record.text, to: &out)
        if !record.fields.isEmpty {
            out += #","fields":{"#.utf8
            for (index, key) in record.fields.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                appendString(record.fields[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out += #","source":{"path":"#.utf8
        appendString(record.source.path, to: &out)
        out += #","line":"#.utf8
        out += String(record.source.line).utf8
        out += "}}\n".utf8
        return out
    }

    /// The merge order of a line: its date, then where it was written (so the entries of one day
    /// keep the order they had in the log), then its id. The date is ASCII ISO 8601, compared
    /// bytewise: calendar order, with a day before that day's times.
    public struct Key: Comparable, Sendable {
        let date: ArraySlice<UInt8>
        let line: Int
        let id: ArraySlice<UInt8>

        public static func < (lhs: Key, rhs: Key) -> Bool {
            if !lhs.date.elementsEqual(rhs.date) { return lhs.date.lexicographicallyPrecedes(rhs.date) }
            if lhs.line != rhs.line { return lhs.line < rhs.line }
            return lhs.id.lexicographicallyPrecedes(rhs.id)
        }

        public static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.date.elementsEqual(rhs.date) && lhs.line == rhs.line && lhs.id.elementsEqual(rhs.id)
        }

        static let first = Key(date: [], line: 0, id: [])
    }

    /// The key of a line written by `encode`; nil for anything else (a hand-edited line that
    /// lost its shape sorts first and is kept as it is).
    public static func key(of line: ArraySlice<UInt8>) -> Key? {
        let idStart = line.startIndex + 7
        guard line.count > 40, line[line.startIndex..<idStart].elementsEqual(#"{"id":""#.utf8),
              let idEnd = line[idStart...].firstIndex(of: UInt8(ascii: "\""))
        else { return nil }
        guard let dateMarker = line[idEnd...].firstRange(of: Array(#""date":""#.utf8)),
              let dateEnd = line[dateMarker.upperBound...].firstIndex(of: UInt8(ascii: "\"")),
              let lineMarker = line.lastRange(of: Array(#""line":"#.utf8))
        else { return nil }
        var number = 0
        for byte in line[lineMarker.upperBound...] {
            guard (48...57).contains(byte) else { break }
            number = number * 10 + Int(byte - 48)
        }
        return Key(date: line[dateMarker.upperBound..<dateEnd], line: number, id: line[idStart..<idEnd])
    }

    /// The year a line's date is in: the year file it belongs to.
    static func year(of key: Key) -> Int? {
        guard key.date.count >= 4 else { return nil }
        var year = 0
        for byte in key.date.prefix(4) {
            guard (48...57).contains(byte) else { return nil }
            year = year * 10 + Int(byte - 48)
        }
        return year
    }

    /// Shortest text that reads back as the same Double; integers without ".0".
    public static func number(_ value: Double) -> String {
        if value.isFinite && value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return value.isFinite ? "\(value)" : "0"
    }

    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [0x5C, 0x22]
            case UInt8(ascii: "\\"): out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
