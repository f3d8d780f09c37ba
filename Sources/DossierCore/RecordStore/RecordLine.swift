/// A record as one JSON line of a year file, written in a fixed field order
/// (`{"id":…,"subject":…,"date":…,…}`) so that merging can read a line's sort key without
/// parsing the rest of it.
public enum RecordLine {
    /// The record as a JSON object followed by "\n". Written byte by byte rather than through
    /// `JSONEncoder`: a big import encodes a million lines.
    public static func encode(_ record: Record) -> [UInt8] {
        var out: [UInt8] = []
        encode(record, into: &out)
        return out
    }

    /// Appends the record's line (with its "\n") to `out`.
    public static func encode(_ record: Record, into out: inout [UInt8]) {
        encode(id: record.id, subject: record.subject, date: record.date, kind: record.kind,
               measurements: record.measurements, text: record.text, fields: record.fields, source: record.source,
               keptSource: record.source.kept, into: &out)
    }

    /// The line of a record from its fields, borrowed from a `Record` or from a draft about to be
    /// filed (a big import then makes no `Record`, and no copies of its strings, at all). Written
    /// through a `ByteWriter` into room for the longest the line could be, then appended at once.
    static func encode(id: RecordID, subject: Subject, date: RecordDate, kind: String, measurements: [RecordMeasurement],
                       text: String, fields: [String: String], source: RecordSource, keptSource: String?,
                       into out: inout [UInt8]) {
        let bound = longestLine(subject: subject, kind: kind, measurements: measurements, text: text, fields: fields,
                                source: source, keptSource: keptSource)
        ByteWriter.append(to: &out, bound: bound) { out in
            write(id: id, subject: subject, date: date, kind: kind, measurements: measurements, text: text,
                  fields: fields, source: source, keptSource: keptSource, to: &out)
        }
    }

    /// Writes the line (with its "\n") into room for at least `longestLine` bytes: an encoder
    /// that keeps a buffer of its own writes lines straight into it (`EncodedRecords`).
    static func write(id: RecordID, subject: Subject, date: RecordDate, kind: String, measurements: [RecordMeasurement],
                      text: String, fields: [String: String], source: RecordSource, keptSource: String?,
                      to out: inout ByteWriter) {
        out.write(#"{"id":""#)
        id.writeHex(to: &out)
        out.write(#"","subject":""#)
        writeContents(subject.kind.rawValue, to: &out)
        out.write(UInt8(ascii: "/"))
        writeContents(subject.id.rawValue, to: &out)
        out.write(#"","date":""#)
        date.writeISO8601(to: &out)
        out.write(#"","kind":"#)
        writeString(kind, to: &out)
        out.write(#","measurements":["#)
        for index in measurements.indices {
            if index > 0 { out.write(UInt8(ascii: ",")) }
            out.write(#"{"name":"#)
            writeString(measurements[index].name, to: &out)
            out.write(#","value":"#)
            writeNumber(measurements[index].value, to: &out)
            out.write(#","unit":"#)
            writeString(measurements[index].unit.rawValue, to: &out)
            if let decimals = measurements[index].decimals {
                out.write(#","decimals":"#)
                writeInteger(decimals, to: &out)
            }
            out.write(UInt8(ascii: "}"))
        }
        out.write(#"],"text":"#)
        writeString(text, to: &out)
        if !fields.isEmpty {
            out.write(#","fields":{"#)
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out.write(UInt8(ascii: ",")) }
                writeString(key, to: &out)
                out.write(UInt8(ascii: ":"))
                writeString(fields[key]!, to: &out)
            }
            out.write(UInt8(ascii: "}"))
        }
        out.write(#","source":{"path":"#)
        writeString(source.path, to: &out)
        out.write(#","line":"#)
        writeInteger(source.line, to: &out)
        if let keptSource {
            out.write(#","kept":"#)
            writeString(keptSource, to: &out)
        }
        out.write("}}\n")
    }

    /// The most bytes `encode` can write for these fields: the fixed parts, numbers at their
    /// longest, and every string as if each of its bytes were a control character (`\u001f`).
    static func longestLine(subject: Subject, kind: String, measurements: [RecordMeasurement], text: String,
                            fields: [String: String], source: RecordSource, keptSource: String?) -> Int {
        func escaped(_ string: String) -> Int { 2 + 6 * string.utf8.count }
        var bound = 160 + escaped(subject.kind.rawValue) + escaped(subject.id.rawValue) + escaped(kind)
            + escaped(text) + escaped(source.path) + longestNumber + (keptSource.map { 16 + escaped($0) } ?? 0)
        for measurement in measurements {
            bound += 48 + escaped(measurement.name) + 2 * longestNumber + escaped(measurement.unit.rawValue)
        }
        for (key, value) in fields { bound += 16 + escaped(key) + escaped(value) }
        return bound
    }

    /// Longer than any `Int` or `Double` is written.
    private static let longestNumber = 32

    /// Digits written last to first into a small buffer, then written at once.
    private static func writeInteger(_ value: Int, to out: inout ByteWriter) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { out.write(UInt8(ascii: "-")) }
            out.write(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Shortest text that reads back as the same Double; whole numbers without ".0".
    public static func number(_ value: Double) -> String {
        var out: [UInt8] = []
        ByteWriter.append(to: &out, bound: longestNumber) { writeNumber(value, to: &$0) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `number`'s text, written: whole numbers (most measurements) without a string in between.
    private static func writeNumber(_ value: Double, to out: inout ByteWriter) {
        if value.isFinite && value == value.rounded() && abs(value) < 1e15 {
            writeInteger(Int(value), to: &out)
        } else {
            var text = value.isFinite ? "\(value)" : "0"
            text.withUTF8 { out.write($0) }
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

    static func writeString(_ text: String, to out: inout ByteWriter) {
        out.write(UInt8(ascii: "\""))
        writeContents(text, to: &out)
        out.write(UInt8(ascii: "\""))
    }

    /// A string's JSON-escaped bytes, without the quotes around them.
    private static func writeContents(_ text: String, to out: inout ByteWriter) {
        // Native strings (all of ours) are contiguous; others are copied once to be.
        if text.utf8.withContiguousStorageIfAvailable({ writeContents($0, to: &out) }) != nil { return }
        writeCopiedContents(text, to: &out)
    }

    /// Kept out of line: written in `writeContents`, the copy had the compiler retain and
    /// release every string written, which cost an import's encoder more than the copy ever will
    /// (a string made on the reader's core is a cache miss on the encoder's).
    @inline(never)
    private static func writeCopiedContents(_ text: String, to out: inout ByteWriter) {
        Array(text.utf8).withUnsafeBufferPointer { writeContents($0, to: &out) }
    }

    private static func writeContents(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) {
        guard let base = bytes.baseAddress else { return }
        // Most text needs no escaping, and text that does (a note quoting a word) needs it for a
        // byte or two: the runs between are copied whole.
        var start = 0
        while true {
            let special = firstToEscape(bytes, from: start)
            if special > start { out.write(UnsafeBufferPointer(start: base + start, count: special - start)) }
            guard special < bytes.count else { return }
            writeEscaped(base[special], to: &out)
            start = special + 1
        }
    }

    /// Whether any byte must be escaped in JSON: a control character, a quote or a backslash.
    static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstToEscape(bytes, from: 0) < bytes.count
    }

    /// The index of the first byte at or after `start` that must be escaped, or the count if
    /// none must. Eight bytes at a time (each test is the classic "has a zero byte" word trick,
    /// whose lowest hit is always a true one), because every line's text, path and names go
    /// through here.
    private static func firstToEscape(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
            let control = (word &- ones &* 0x20) & ~word
            let quote = (quotes &- ones) & ~quotes, backslash = (backslashes &- ones) & ~backslashes
            let hits = (control | quote | backslash) & highs
            if hits != 0 { return index + hits.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < bytes.count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }

    private static func writeEscaped(_ byte: UInt8, to out: inout ByteWriter) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            out.write(0x5C)
            out.write(byte)
        case 0x0A: out.write(#"\n"#)
        case 0x0D: out.write(#"\r"#)
        case 0x09: out.write(#"\t"#)
        case 0..<0x20:
            let hex: StaticString = "0123456789abcdef"
            out.write(#"\u00"#)
            out.write(hex.utf8Start[Int(byte >> 4)])
            out.write(hex.utf8Start[Int(byte & 0xF)])
        default: out.write(byte)
        }
    }
}
