/// A record as one JSON line of a year file, written in a fixed field order
/// (`{"id":…,"subject":…,"date":…,…}`) so that merging can read a line's sort key without
/// parsing the rest of it.
public enum RecordLine {
    /// The record as a JSON object followed by "\n". Written byte by byte rather than through
    /// `JSONEncoder`: a big import encodes a million lines.
    public static func encode(_ record: Record) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(176 + record.text.utf8.count + record.source.path.utf8.count)
        encode(record, into: &out)
        return out
    }

    /// Appends the record's line (with its "\n") to `out`.
    public static func encode(_ record: Record, into out: inout [UInt8]) {
        encode(id: record.id, subject: record.subject, date: record.date, kind: record.kind,
               measurements: record.measurements, text: record.text, fields: record.fields, source: record.source,
               into: &out)
    }

    /// The line of a record from its fields, borrowed from a `Record` or from a draft about to be
    /// filed (a big import then makes no `Record`, and no copies of its strings, at all).
    static func encode(id: RecordID, subject: Subject, date: RecordDate, kind: String, measurements: [RecordMeasurement],
                       text: String, fields: [String: String], source: RecordSource, into out: inout [UInt8]) {
        append(#"{"id":""#, to: &out)
        id.appendHex(to: &out)
        append(#"","subject":""#, to: &out)
        appendContents(subject.kind.rawValue, to: &out)
        out.append(UInt8(ascii: "/"))
        appendContents(subject.id.rawValue, to: &out)
        append(#"","date":""#, to: &out)
        date.appendISO8601(to: &out)
        append(#"","kind":"#, to: &out)
        appendString(kind, to: &out)
        append(#","measurements":["#, to: &out)
        for index in measurements.indices {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append(#"{"name":"#, to: &out)
            appendString(measurements[index].name, to: &out)
            append(#","value":"#, to: &out)
            appendNumber(measurements[index].value, to: &out)
            append(#","unit":"#, to: &out)
            appendString(measurements[index].unit.rawValue, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        append(#"],"text":"#, to: &out)
        appendString(text, to: &out)
        if !fields.isEmpty {
            append(#","fields":{"#, to: &out)
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                appendString(fields[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        append(#","source":{"path":"#, to: &out)
        appendString(source.path, to: &out)
        append(#","line":"#, to: &out)
        appendInteger(source.line, to: &out)
        append("}}\n", to: &out)
    }

    private static func append(_ literal: StaticString, to out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Digits written last to first into a small buffer, then appended at once.
    private static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Shortest text that reads back as the same Double; whole numbers without ".0".
    public static func number(_ value: Double) -> String {
        var out: [UInt8] = []
        appendNumber(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `number`'s text, appended: whole numbers (most measurements) without a string in between.
    private static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        if value.isFinite && value == value.rounded() && abs(value) < 1e15 {
            appendInteger(Int(value), to: &out)
        } else {
            out += (value.isFinite ? "\(value)" : "0").utf8
        }
    }

    /// The merge order of a line: its date, then where it was written (so the entries of one day
    /// keep the order they had in the log), then its id. Packed into integers, because sorting
    /// and merging compare keys millions of times: the date as `yyyyMMdd`, a flag for "has a
    /// time" (a day sorts before that day's times), then `HHmm`; the id's 16 hex digits as a
    /// 64-bit number.
    public struct Key: Comparable, Sendable {
        let date: UInt64
        let line: Int
        let id: UInt64

        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.date, lhs.line, lhs.id) < (rhs.date, rhs.line, rhs.id)
        }

        static let first = Key(date: 0, line: 0, id: 0)

        /// The day alone, for telling when a merge moves on to the next day.
        var day: UInt64 { date / 100_000 }

        init(date: UInt64, line: Int, id: UInt64) {
            self.date = date
            self.line = line
            self.id = id
        }

        init(date: RecordDate, line: Int, id: RecordID) {
            var value = UInt64(date.year * 10_000 + date.month * 100 + date.day) * 10
            if let hour = date.hour, let minute = date.minute {
                value = (value + 1) * 10_000 + UInt64(hour * 100 + minute)
            } else {
                value *= 10_000
            }
            self.init(date: value, line: line, id: id.value)
        }

        /// From the ASCII of an ISO date (`2023-05-07`, `2023-05-07T15:30`, with an offset).
        init(isoDate bytes: ArraySlice<UInt8>, line: Int, hexID: ArraySlice<UInt8>) {
            func digits(_ offset: Int, _ count: Int) -> UInt64 {
                var value: UInt64 = 0
                for index in 0..<count {
                    let position = bytes.startIndex + offset + index
                    guard position < bytes.endIndex, (48...57).contains(bytes[position]) else { return 0 }
                    value = value * 10 + UInt64(bytes[position] - 48)
                }
                return value
            }
            var value = (digits(0, 4) * 10_000 + digits(5, 2) * 100 + digits(8, 2)) * 10
            if bytes.count >= 16 {
                value = (value + 1) * 10_000 + digits(11, 2) * 100 + digits(14, 2)
            } else {
                value *= 10_000
            }
            var id: UInt64 = 0
            for byte in hexID {
                let nibble: UInt8 = byte >= 97 ? byte - 87 : byte >= 65 ? byte - 55 : byte &- 48
                id = id << 4 | UInt64(nibble & 0x0F)
            }
            self.init(date: value, line: line, id: id)
        }
    }

    /// The key of a line written by `encode`; nil for anything else (a hand-edited line that
    /// lost its shape sorts first and is kept as it is). Scans bytes by hand: merging reads
    /// the key of every line of a year file.
    public static func key(of line: ArraySlice<UInt8>) -> Key? {
        let start = line.startIndex
        let idStart = start + 7
        guard line.count > 40, line[start..<idStart].elementsEqual(idPrefix),
              let idEnd = find(UInt8(ascii: "\""), in: line, from: idStart),
              let dateMarker = find(datePrefix, in: line, from: idEnd),
              let dateEnd = find(UInt8(ascii: "\""), in: line, from: dateMarker),
              let lineMarker = findLast(linePrefix, in: line)
        else { return nil }
        var number = 0
        var index = lineMarker
        while index < line.endIndex, (48...57).contains(line[index]) {
            number = number * 10 + Int(line[index] - 48)
            index += 1
        }
        return Key(isoDate: line[dateMarker..<dateEnd], line: number, hexID: line[idStart..<idEnd])
    }

    private static let idPrefix = Array(#"{"id":""#.utf8)
    private static let datePrefix = Array(#""date":""#.utf8)
    private static let linePrefix = Array(#""line":"#.utf8)

    private static func find(_ byte: UInt8, in line: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < line.endIndex {
            if line[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// The index just past the first occurrence of `pattern` at or after `start`.
    private static func find(_ pattern: [UInt8], in line: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        let last = line.endIndex - pattern.count
        while index <= last {
            if line[index] == pattern[0] {
                var matched = 1
                while matched < pattern.count && line[index + matched] == pattern[matched] { matched += 1 }
                if matched == pattern.count { return index + matched }
            }
            index += 1
        }
        return nil
    }

    /// The index just past the last occurrence of `pattern`.
    private static func findLast(_ pattern: [UInt8], in line: ArraySlice<UInt8>) -> Int? {
        var index = line.endIndex - pattern.count
        while index >= line.startIndex {
            if line[index] == pattern[0] {
                var matched = 1
                while matched < pattern.count && line[index + matched] == pattern[matched] { matched += 1 }
                if matched == pattern.count { return index + matched }
            }
            index -= 1
        }
        return nil
    }

    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        appendContents(text, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// A string's JSON-escaped bytes, without the quotes around them.
    private static func appendContents(_ text: String, to out: inout [UInt8]) {
        // Native strings (all of ours) are contiguous; others are copied once to be.
        if text.utf8.withContiguousStorageIfAvailable({ appendContents($0, to: &out) }) != nil { return }
        Array(text.utf8).withUnsafeBufferPointer { appendContents($0, to: &out) }
    }

    private static func appendContents(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // Most text needs no escaping: copy it whole.
        guard needsEscaping(bytes) else {
            out.append(contentsOf: bytes)
            return
        }
        for byte in bytes { appendEscaped(byte, to: &out) }
    }

    /// Whether any byte must be escaped in JSON: a control character, a quote or a backslash.
    /// Eight bytes at a time (each test is the classic "has a zero byte" word trick), because
    /// every line's text, path and names go through here.
    static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
            let control = (word &- ones &* 0x20) & ~word
            let quote = (quotes &- ones) & ~quotes, backslash = (backslashes &- ones) & ~backslashes
            if (control | quote | backslash) & highs != 0 { return true }
            index += 8
        }
        while index < bytes.count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            index += 1
        }
        return false
    }

    private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
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
}
