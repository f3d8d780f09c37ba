import DossierCore
import Foundation

/// The dates sound and video containers keep in their own headers, read by small bounded readers
/// (every length checked against the bytes there are): an MP3's ID3v2 tag, a RIFF file's chunks
/// (an AVI's `IDIT`, a WAV's `bext`, `LIST`/`INFO`'s `ICRD`), a Matroska file's `DateUTC`, an
/// AVCHD camcorder's `MDPM` in an MTS (`AVCHDDates`). A date
/// without its day (an ID3 year alone) dates nothing: the file's name or time does better.
enum ContainerDates {
    /// The dates found, and any written that is no date (said in the outcome's warning).
    static func of(_ bytes: [UInt8], timeZone: TimeZone) -> (dates: [CaptureDate], datesThatAreNone: [String]) {
        if bytes.has("ID3") { return (id3(bytes), []) }
        if bytes.has("RIFF") { return (riff(bytes), []) }
        if bytes.has([0x1A, 0x45, 0xDF, 0xA3]) { return (matroska(bytes, timeZone: timeZone), []) }
        if AVCHDDates.packetLayout(bytes) != nil { return AVCHDDates.of(bytes) }
        return ([], [])
    }

    // MARK: ID3v2

    /// `TDRC` (ID3v2.4: `2019-05-04T10:11:12`, to the day at least), else `TYER` + `TDAT`
    /// (`DDMM`) + `TIME` (`HHMM`) (ID3v2.3).
    static func id3(_ bytes: [UInt8]) -> [CaptureDate] {
        guard bytes.count >= 10, bytes[3] == 3 || bytes[3] == 4 else { return [] }
        let version = bytes[3]
        let syncsafe = { (at: Int) in bytes[at..<(at + 4)].reduce(0) { $0 << 7 | Int($1 & 0x7F) } }
        let end = min(bytes.count, 10 + syncsafe(6))
        var frames: [String: String] = [:]
        var position = 10
        while position + 10 <= end {
            let id = String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
            guard id.allSatisfy({ $0.isLetter || $0.isNumber }) else { break }
            let size = version == 4 ? syncsafe(position + 4) : bytes[(position + 4)..<(position + 8)].reduce(0) { $0 << 8 | Int($1) }
            let start = position + 10
            guard size > 0, size <= end - start else { break }
            if ["TDRC", "TYER", "TDAT", "TIME"].contains(id) { frames[id] = text(bytes[start..<(start + size)]) }
            position = start + size
        }
        if let recorded = frames["TDRC"], let date = isoDate(recorded) { return [CaptureDate(date, origin: .id3RecordingTime)] }
        guard let year = frames["TYER"].flatMap({ Int($0.prefix(4)) }), let day = frames["TDAT"], day.count == 4,
              let dd = Int(day.prefix(2)), let mm = Int(day.suffix(2))
        else { return [] }
        let time = frames["TIME"].flatMap { $0.count == 4 ? (Int($0.prefix(2)), Int($0.suffix(2))) : nil }
        guard let date = LocalDateTime(year: year, month: mm, day: dd, hour: time?.0 ?? 0, minute: time?.1 ?? 0) else { return [] }
        return [CaptureDate(date, origin: .id3RecordingTime)]
    }

    /// A text frame's value: its encoding byte (Latin-1, UTF-16 with a BOM, UTF-16BE, UTF-8), then the text.
    private static func text(_ frame: ArraySlice<UInt8>) -> String? {
        guard let encoding = frame.first else { return nil }
        let body = Data(frame.dropFirst())
        let decoded: String? = switch encoding {
        case 0: String(data: body, encoding: .isoLatin1)
        case 1: String(data: body, encoding: .utf16)
        case 2: String(data: body, encoding: .utf16BigEndian)
        default: String(data: body, encoding: .utf8)
        }
        return decoded?.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
    }

    // MARK: RIFF

    /// An AVI's `IDIT` (`Mon Mar 10 15:04:43 2008` or `2008:03:10 15:04:43`), a WAV's `bext`
    /// origination date and time, else `ICRD` (`2008-03-10`, a time after it when there is one).
    static func riff(_ bytes: [UInt8]) -> [CaptureDate] {
        var found: [String: [UInt8]] = [:]
        func walk(_ start: Int, _ end: Int, depth: Int) {
            var position = start
            while position + 8 <= end, depth < 4 {
                let id = String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
                let size = bytes[(position + 4)..<(position + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
                let body = position + 8
                guard size >= 0, size <= end - body else { return }
                if id == "LIST", size >= 4 {
                    walk(body + 4, body + size, depth: depth + 1)
                } else if ["IDIT", "ICRD", "bext"].contains(id), found[id] == nil {
                    found[id] = Array(bytes[body..<(body + size)])
                }
                position = body + size + size % 2
            }
        }
        guard bytes.count >= 12 else { return [] }
        walk(12, bytes.count, depth: 0)
        if let idit = found["IDIT"].map(latin1), let date = aviDate(idit) ?? LocalDateTime(exif: idit) {
            return [CaptureDate(date, origin: .riffDate)]
        }
        if let bext = found["bext"], bext.count >= 338 {
            let day = latin1(Array(bext[320..<330])), time = latin1(Array(bext[330..<338]))
            if let date = isoDate(day + "T" + time.replacingOccurrences(of: "-", with: ":")) ?? isoDate(day) {
                return [CaptureDate(date, origin: .riffDate)]
            }
        }
        if let created = found["ICRD"].map(latin1), let date = isoDate(created.replacingOccurrences(of: " ", with: "T")) {
            return [CaptureDate(date, origin: .riffDate)]
        }
        return []
    }

    private static func latin1(_ bytes: [UInt8]) -> String {
        String(bytes: bytes.prefix { $0 != 0 }, encoding: .isoLatin1)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// `Mon Mar 10 15:04:43 2008`, as cameras write IDIT.
    private static func aviDate(_ text: String) -> LocalDateTime? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 5, let month = months.firstIndex(of: String(parts[1])), let day = Int(parts[2]),
              let year = Int(parts[4])
        else { return nil }
        let clock = parts[3].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        return LocalDateTime(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2])
    }

    /// `2019-05-04`, `2019-05-04T10:11`, `2019-05-04T10:11:12` (more after the seconds ignored).
    private static func isoDate(_ text: String) -> LocalDateTime? {
        let fields = text.split(whereSeparator: { !$0.isNumber }).prefix(6).compactMap { Int($0) }
        guard fields.count >= 3, text.count >= 10 else { return nil }
        return LocalDateTime(year: fields[0], month: fields[1], day: fields[2], hour: fields.count > 3 ? fields[3] : 0,
                             minute: fields.count > 4 ? fields[4] : 0, second: fields.count > 5 ? fields[5] : 0)
    }

    // MARK: Matroska

    /// `Segment` > `Info` > `DateUTC`: nanoseconds since 2001-01-01T00:00:00 UTC, an instant,
    /// named on the wall clock of the library's time zone.
    static func matroska(_ bytes: [UInt8], timeZone: TimeZone) -> [CaptureDate] {
        var position = 0
        guard let header = element(bytes, at: &position), header.id == 0x1A45DFA3 else { return [] }
        position = header.end
        guard let segment = element(bytes, at: &position), segment.id == 0x18538067 else { return [] }
        position = segment.start
        while position < min(segment.end, bytes.count), let child = element(bytes, at: &position) {
            if child.id == 0x1549A966 {
                var inner = child.start
                while inner < child.end, let field = element(bytes, at: &inner) {
                    if field.id == 0x4461, field.end - field.start == 8, field.end <= bytes.count {
                        let nanoseconds = bytes[field.start..<field.end].reduce(Int64(0)) { $0 << 8 | Int64($1) }
                        let date = Date(timeIntervalSinceReferenceDate: Double(nanoseconds) / 1e9)
                        return [CaptureDate(date, in: timeZone, origin: .matroskaDate)]
                    }
                    inner = field.end
                }
                return []
            }
            // Clusters come after Info: past the first, there is none.
            if child.id == 0x1F43B675 { return [] }
            position = child.end
        }
        return []
    }

    /// One EBML element at `position` (its id with its length marker, a variable-length size);
    /// `position` is left at its data. Nil when it does not fit what is there.
    private static func element(_ bytes: [UInt8], at position: inout Int) -> (id: Int, start: Int, end: Int)? {
        guard let (id, idLength) = vint(bytes, position, keepMarker: true) else { return nil }
        guard let (size, sizeLength) = vint(bytes, position + idLength, keepMarker: false) else { return nil }
        let start = position + idLength + sizeLength
        // An unknown size (all ones) runs to the end of what is read.
        let unknown = size == (1 << (7 * sizeLength)) - 1
        let end = unknown ? bytes.count : start + size
        guard start <= bytes.count, size >= 0, unknown || size <= Int(Int32.max) else { return nil }
        position = start
        return (id, start, end)
    }

    private static func vint(_ bytes: [UInt8], _ at: Int, keepMarker: Bool) -> (Int, Int)? {
        guard at < bytes.count, bytes[at] != 0 else { return nil }
        let length = bytes[at].leadingZeroBitCount + 1
        guard length <= 8, at + length <= bytes.count else { return nil }
        var value = keepMarker ? Int(bytes[at]) : Int(bytes[at]) & ((1 << (8 - length)) - 1)
        for index in 1..<length { value = value << 8 | Int(bytes[at + index]) }
        return (value, length)
    }
}

// MARK: - AVCHDDates

/// The recording date an AVCHD camcorder writes into its MTS and M2TS files: in its H.264
/// stream's SEI, the user data Sony and Panasonic mark `MDPM` (exiftool's H264 group), a count
/// and then five-byte entries, of which 0x18 holds the year and month and 0x19 the day and
/// time, in BCD, on the camcorder's wall clock.
///
/// A transport stream cuts the stream into 188-byte packets (192 in an M2TS, a 4-byte time
/// first), interleaved with the sound's and the tables': the packets of each PID are joined
/// before the search, so an entry cut by a packet's end is read whole. Bounded: only the bytes
/// given (the start of the file) are read.
enum AVCHDDates {
    /// Sony's and Panasonic's SEI user-data UUID, before `MDPM`.
    static let marker = Array("MDPM".utf8)

    /// The recording date, and, when the camcorder wrote one that is no date (month 13, hour
    /// 25: a clock never set, a misread field), that date as written, for the warning.
    static func of(_ bytes: [UInt8]) -> (dates: [CaptureDate], datesThatAreNone: [String]) {
        guard let layout = packetLayout(bytes) else { return ([], []) }
        var streams: [Int: [UInt8]] = [:]
        var packet = 0
        while packet + layout.size <= bytes.count {
            let start = packet + layout.prefix
            packet += layout.size
            guard bytes[start] == 0x47 else { continue }
            let pid = Int(bytes[start + 1] & 0x1F) << 8 | Int(bytes[start + 2])
            let adaptation = bytes[start + 3] >> 4 & 0x3
            guard adaptation & 0x1 != 0 else { continue }
            var payload = start + 4
            if adaptation & 0x2 != 0 { payload += 1 + Int(bytes[start + 4]) }
            guard payload < start + 188 else { continue }
            streams[pid, default: []] += bytes[payload..<(start + 188)]
        }
        var none: [String] = []
        for pid in streams.keys.sorted() {
            switch date(inStream: withoutEmulationPrevention(streams[pid]!)) {
            case .date(let date): return ([CaptureDate(date, origin: .avchdDate)], [])
            case .noDate(let written): none.append("AVCHD recording date (\"\(written)\")")
            case nil: continue
            }
        }
        return ([], Array(none.prefix(1)))
    }

    /// 188-byte packets, or an M2TS's 192 with the sync byte after a 4-byte time.
    static func packetLayout(_ bytes: [UInt8]) -> (size: Int, prefix: Int)? {
        if bytes.count > 376, bytes[0] == 0x47, bytes[188] == 0x47, bytes[376] == 0x47 { return (188, 0) }
        if bytes.count > 388, bytes[4] == 0x47, bytes[196] == 0x47, bytes[388] == 0x47 { return (192, 4) }
        return nil
    }

    /// The first `MDPM` block's date whose entries are whole BCD; else, when a block's BCD
    /// digits make no date, what they say (`2021-13-08 25:00:02`); nil when there is no block.
    static func date(inStream stream: [UInt8]) -> Reading? {
        var written: String?
        var from = 0
        while let found = stream[from...].firstRange(of: marker) {
            from = found.upperBound
            let countAt = found.upperBound
            guard countAt < stream.count else { break }
            let count = Int(stream[countAt])
            var entries: [UInt8: ArraySlice<UInt8>] = [:]
            var at = countAt + 1
            for _ in 0..<count where at + 5 <= stream.count {
                entries[stream[at]] = stream[(at + 1)..<(at + 5)]
                at += 5
            }
            guard let first = entries[0x18], let second = entries[0x19] else { continue }
            // 0x18: the time zone byte, then the year's two BCD bytes and the month; 0x19: day, hour, minute, second.
            let digits = (Array(first.dropFirst()) + Array(second)).map(bcd)
            guard !digits.contains(nil) else { continue }
            let values = digits.map { $0! }
            if let date = LocalDateTime(year: values[0] * 100 + values[1], month: values[2], day: values[3], hour: values[4],
                                        minute: values[5], second: values[6]) {
                return .date(date)
            }
            if written == nil, values.contains(where: { $0 != 0 }) {
                written = String(format: "%02d%02d-%02d-%02d %02d:%02d:%02d", values[0], values[1], values[2], values[3], values[4],
                                 values[5], values[6])
            }
        }
        return written.map { .noDate(written: $0) }
    }

    /// What an `MDPM` block's date entries say.
    enum Reading: Equatable {
        case date(LocalDateTime)
        /// Digits that make no date, as written.
        case noDate(written: String)
    }

    /// A BCD byte's value (0x59 is 59); nil when a nibble is not a digit.
    static func bcd(_ byte: UInt8) -> Int? {
        let high = Int(byte >> 4), low = Int(byte & 0x0F)
        return high < 10 && low < 10 ? high * 10 + low : nil
    }

    /// H.264 puts a 0x03 after any two zero bytes that a 0, 1, 2 or 3 follows, so that the data
    /// never looks like a start code: taken out before the entries are read.
    static func withoutEmulationPrevention(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for (index, byte) in bytes.enumerated() {
            if zeros >= 2, byte == 0x03, index + 1 < bytes.count, bytes[index + 1] <= 0x03 {
                zeros = 0
                continue
            }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }
}
