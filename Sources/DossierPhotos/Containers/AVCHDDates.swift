import DossierCore
import Foundation

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
