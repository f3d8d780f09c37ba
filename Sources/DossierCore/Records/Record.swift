import Crypto
import Foundation

/// One dated entry about one subject, as filed in `<subject>/records/<YYYY>.jsonl`.
public struct Record: Hashable, Sendable, Codable {
    /// Stable: derived from the subject, date, kind, text, measurements and fields, so the same
    /// entry read twice (from one file imported again, or from two files) has the same id and is
    /// filed once, while two rows that differ only in a number (two feedings of one day with the
    /// same note, 120 ml and 90 ml) are two records, and a corrected number a new one.
    public let id: RecordID
    public let subject: Subject
    public let date: RecordDate
    /// feeding, shedding, weight, height, cleaning, memo, or what the keyword table adds.
    public let kind: String
    public let measurements: [RecordMeasurement]
    /// The entry as written.
    public let text: String
    /// Columns of a CSV row that are neither date, subject, kind nor a measurement, by header.
    public let fields: [String: String]
    public let source: RecordSource

    public init(subject: Subject, date: RecordDate, kind: String, measurements: [RecordMeasurement], text: String,
                fields: [String: String] = [:], source: RecordSource) {
        self.id = Record.id(subject: subject, date: date, kind: kind, text: text, measurements: measurements, fields: fields)
        self.subject = subject
        self.date = date
        self.kind = kind
        self.measurements = measurements
        self.text = text
        self.fields = fields
        self.source = source
    }

    /// SHA-256 over the fields that make an entry the same entry, separated by the unit
    /// separator (which none of them holds); its first 64 bits. Measurements and fields count
    /// only when there are any, so an entry of text alone keeps the id it always had.
    public static func id(subject: Subject, date: RecordDate, kind: String, text: String,
                          measurements: [RecordMeasurement] = [], fields: [String: String] = [:]) -> RecordID {
        var key: [UInt8] = []
        return id(subject: subject, date: date, kind: kind, text: text, measurements: measurements, fields: fields, scratch: &key)
    }

    /// `id`, gathering the bytes it hashes in `scratch`.
    static func id(subject: Subject, date: RecordDate, kind: String, text: String, measurements: [RecordMeasurement],
                   fields: [String: String], scratch key: inout [UInt8]) -> RecordID {
        let bound = longestIDKey(subject: subject, kind: kind, text: text, measurements: measurements, fields: fields)
        if key.count < bound { key.append(contentsOf: repeatElement(0, count: bound - key.count)) }
        return key.withUnsafeMutableBufferPointer {
            id(subject: subject, date: date, kind: kind, text: text, measurements: measurements, fields: fields, in: $0)
        }
    }

    /// The most bytes the key an id is hashed from can take.
    static func longestIDKey(subject: Subject, kind: String, text: String, measurements: [RecordMeasurement],
                             fields: [String: String]) -> Int {
        var bound = 16 + subject.kind.rawValue.utf8.count + subject.id.rawValue.utf8.count + RecordDate.longestISO8601
            + kind.utf8.count + text.utf8.count
        for measurement in measurements {
            bound += 10 + measurement.name.utf8.count + measurement.unit.rawValue.utf8.count
        }
        for (name, value) in fields { bound += 2 + name.utf8.count + value.utf8.count }
        return bound
    }

    /// `id`, gathering the bytes it hashes in `room` (at least `longestIDKey` bytes): an encoder
    /// lends the room its record's line is then written over, so no array is filled for it.
    static func id(subject: Subject, date: RecordDate, kind: String, text: String, measurements: [RecordMeasurement],
                   fields: [String: String], in room: UnsafeMutableBufferPointer<UInt8>) -> RecordID {
        var key = ByteWriter(room)
        key.writeUTF8(subject.kind.rawValue)
        key.write(UInt8(ascii: "/"))
        key.writeUTF8(subject.id.rawValue)
        key.write(0x1F)
        date.writeISO8601(to: &key)
        key.write(0x1F)
        key.writeUTF8(kind)
        key.write(0x1F)
        key.writeUTF8(text)
        for measurement in measurements {
            key.write(0x1E)
            key.writeUTF8(measurement.name)
            key.write(0x1F)
            withUnsafeBytes(of: measurement.value.bitPattern.bigEndian) { value in
                for byte in value { key.write(byte) }
            }
            key.writeUTF8(measurement.unit.rawValue)
        }
        if !fields.isEmpty {
            // In the order of their names: a dictionary's own order differs from run to run.
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                key.write(0x1D)
                key.writeUTF8(name)
                key.write(0x1F)
                key.writeUTF8(value)
            }
        }
        var hasher = SHA256()
        hasher.update(bufferPointer: UnsafeRawBufferPointer(key.written))
        return RecordID(hasher.finalize().withUnsafeBytes { digest in
            digest.loadUnaligned(as: UInt64.self).bigEndian
        })
    }

    enum CodingKeys: String, CodingKey {
        case id, subject, date, kind, measurements, text, fields, source
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(RecordID.self, forKey: .id)
        let reference = try container.decode(String.self, forKey: .subject)
        do {
            subject = try Subject(parsing: reference)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .subject, in: container, debugDescription: "\(error)")
        }
        date = try container.decode(RecordDate.self, forKey: .date)
        kind = try container.decode(String.self, forKey: .kind)
        measurements = try container.decode([RecordMeasurement].self, forKey: .measurements)
        text = try container.decode(String.self, forKey: .text)
        fields = try container.decodeIfPresent([String: String].self, forKey: .fields) ?? [:]
        source = try container.decode(RecordSource.self, forKey: .source)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(subject.path, forKey: .subject)
        try container.encode(date, forKey: .date)
        try container.encode(kind, forKey: .kind)
        try container.encode(measurements, forKey: .measurements)
        try container.encode(text, forKey: .text)
        if !fields.isEmpty { try container.encode(fields, forKey: .fields) }
        try container.encode(source, forKey: .source)
    }
}

// MARK: - RecordDate

/// The date of a record: a calendar day, with a wall-clock time and a UTC offset only when the
/// source gave them. ISO 8601 in JSON: `2023-05-07`, `2023-05-14T15:30`, `2023-05-14T15:30+09:00`.
public struct RecordDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int?
    public let minute: Int?
    /// Minutes east of UTC, if the source said.
    public let utcOffsetMinutes: Int?

    /// The years a care record can have. A date outside them (`0000-01-01`, `9999-12-31`, a
    /// misread serial number) is a mistake to report, not a record to file: every importer holds
    /// dates to the same range, so a log and a CSV of the same events agree.
    public static let plausibleYears = 1900...2199

    public init?(year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int? = nil, utcOffsetMinutes: Int? = nil) {
        guard LocalDateTime(year: year, month: month, day: day, hour: hour ?? 0, minute: minute ?? 0) != nil,
              (hour == nil) == (minute == nil),
              utcOffsetMinutes.map({ abs($0) <= 18 * 60 }) ?? true, utcOffsetMinutes == nil || hour != nil
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.utcOffsetMinutes) = (hour, minute, utcOffsetMinutes)
    }

    /// Parses what `iso8601` writes.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10)
        else { return nil }
        if bytes.count == 10 {
            self.init(year: year, month: month, day: day)
            return
        }
        guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              let hour = number(11..<13), let minute = number(14..<16)
        else { return nil }
        if bytes.count == 16 {
            self.init(year: year, month: month, day: day, hour: hour, minute: minute)
            return
        }
        guard bytes.count == 22, bytes[16] == UInt8(ascii: "+") || bytes[16] == UInt8(ascii: "-"),
              bytes[19] == UInt8(ascii: ":"), let offsetHours = number(17..<19), let offsetMinutes = number(20..<22)
        else { return nil }
        let offset = (offsetHours * 60 + offsetMinutes) * (bytes[16] == UInt8(ascii: "-") ? -1 : 1)
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, utcOffsetMinutes: offset)
    }

    public var hasTime: Bool { hour != nil }

    /// The day alone.
    public var dayOnly: RecordDate { RecordDate(year: year, month: month, day: day)! }

    public var iso8601: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(22)
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `iso8601`'s bytes: records' lines and ids are made of them a million times over
    /// in a big import, without a string in between.
    public func appendISO8601(to out: inout [UInt8]) {
        ByteWriter.append(to: &out, bound: RecordDate.longestISO8601) { writeISO8601(to: &$0) }
    }

    /// `2023-05-14T15:30+09:00`: the longest form.
    static let longestISO8601 = 22

    /// Writes `iso8601`'s bytes. Every field is 0...99 or a year of 1...9999 (`init` makes sure),
    /// so two digits at a time.
    func writeISO8601(to writer: inout ByteWriter) {
        writer.writeTwoDigits(year / 100)
        writer.writeTwoDigits(year % 100)
        writer.write(UInt8(ascii: "-"))
        writer.writeTwoDigits(month)
        writer.write(UInt8(ascii: "-"))
        writer.writeTwoDigits(day)
        if let hour, let minute {
            writer.write(UInt8(ascii: "T"))
            writer.writeTwoDigits(hour)
            writer.write(UInt8(ascii: ":"))
            writer.writeTwoDigits(minute)
        }
        if let offset = utcOffsetMinutes {
            writer.write(UInt8(ascii: offset < 0 ? "-" : "+"))
            writer.writeTwoDigits(abs(offset) / 60)
            writer.write(UInt8(ascii: ":"))
            writer.writeTwoDigits(abs(offset) % 60)
        }
    }

    public var description: String { iso8601 }

    /// Days and times in calendar order; a day without a time sorts before that day's times.
    public static func < (lhs: RecordDate, rhs: RecordDate) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour ?? -1, lhs.minute ?? -1)
            < (rhs.year, rhs.month, rhs.day, rhs.hour ?? -1, rhs.minute ?? -1)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = RecordDate(iso8601: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}

// MARK: - RecordID

/// A record's stable id: the first 64 bits of SHA-256 over what makes an entry the same entry
/// (`Record.id(subject:date:kind:text:)`), written as 16 hex digits. Kept as a number, because
/// merging and deduplication compare ids millions of times.
public struct RecordID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }

    /// From its 16 hex digits (either case); nil for anything else.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 16, let value = UInt64(hex, radix: 16) else { return nil }
        self.value = value
    }

    public var hex: String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 { buffer[index] = RecordID.digit(value, index) }
            return 16
        }
    }

    public var description: String { hex }

    /// Writes the 16 hex digits into a line being encoded.
    func writeHex(to writer: inout ByteWriter) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            for index in 0..<16 { digits[index] = RecordID.digit(value, index) }
            writer.write(UnsafeBufferPointer(digits))
        }
    }

    private static func digit(_ value: UInt64, _ index: Int) -> UInt8 {
        let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0x0F
        return nibble < 10 ? 48 + nibble : 87 + nibble
    }

    public static func < (lhs: RecordID, rhs: RecordID) -> Bool { lhs.value < rhs.value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = RecordID(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a record id: \(text)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

// MARK: - RecordSource

/// Where a record was read: the file and its 1-based line (for CSV, the row's first line), and
/// the library's own copy of that file's bytes (`sources/...`, relative to the library), so the
/// line can be read again whatever becomes of the original.
public struct RecordSource: Hashable, Sendable, Codable {
    public let path: String
    public let line: Int
    /// The kept copy, relative to the library; nil for records filed before sources were kept.
    public var kept: String?

    public init(path: String, line: Int, kept: String? = nil) {
        self.path = path
        self.line = line
        self.kept = kept
    }
}

// MARK: - RecordDraft

/// A record on its way through the pipeline: read, but not yet classified, converted or filed.
/// Transforms fill in what the source left open; the filer turns it into a `Record`.
public struct RecordDraft: Sendable, Equatable {
    public var source: RecordSource
    /// Set by the importer when the source names the subject (a name on the line, a CSV
    /// column); otherwise routing sets it from the file's path or --subject.
    public var subject: Subject?
    public var date: RecordDate
    /// Given by the source (a kind column, --kind, the file's name) or found by classification.
    public var kind: String?
    /// The words that say what happened, without date and name: what classification reads.
    /// Mostly a part of `text` (a log line's words after its date and name), so a substring of it:
    /// a string of its own would be one more allocation and copy for every record.
    public var body: Substring
    /// The entry as written.
    public var text: String
    /// Numbers with the unit words they were written with ("5 마리", "0.05 kg"), before conversion.
    public var quantities: [Quantity]
    public var measurements: [RecordMeasurement]
    public var fields: [String: String]

    public init(source: RecordSource, subject: Subject? = nil, date: RecordDate,
                kind: String? = nil, body: Substring, text: String, quantities: [Quantity] = [],
                measurements: [RecordMeasurement] = [], fields: [String: String] = [:]) {
        self.source = source
        self.subject = subject
        self.date = date
        self.kind = kind
        self.body = body
        self.text = text
        self.quantities = quantities
        self.measurements = measurements
        self.fields = fields
    }
}

// MARK: - RecordMeasurement

/// One number a record carries: `{"name": "weight", "value": 45, "unit": "g"}`.
public struct RecordMeasurement: Hashable, Sendable, Codable {
    public let name: String
    public let value: Double
    public let unit: MeasurementUnit
    /// A value converted from another unit is stored as it came out (4 oz: 118.294 ml), but that
    /// is more than the source said: the decimals it is shown to, as many as the source's number
    /// gave in this unit (`"decimals": 0`: 118 ml). Nil for a value as written, shown as stored.
    /// Not part of the record's id.
    public let decimals: Int?

    /// No care record measures a trillion of anything: a number this large or larger (`1e305
    /// kg`, three hundred nines) is a slip or a hostile file, and is read as no quantity, its
    /// text kept, rather than a value no unit or chart can hold.
    public static let largestValue: Double = 1e12

    public init(name: String, value: Double, unit: MeasurementUnit, decimals: Int? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
        self.decimals = decimals
    }

    /// The same measurement: its name, value and unit. How many decimals it is shown to is how it
    /// reads, not what it is (a record's id leaves it out too).
    public static func == (lhs: RecordMeasurement, rhs: RecordMeasurement) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value && lhs.unit == rhs.unit
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
        hasher.combine(unit)
    }

    /// The value as a person should read it: to `decimals` when it has them.
    public var shownValue: String {
        guard let decimals, value.isFinite else { return RecordLine.number(value) }
        return String(format: "%.\(decimals)f", value)
    }

    /// `shownDecimals(of: decimals(written:), convertedBy:)`, the bytes read only for a
    /// conversion: a CSV's every cell passes here, and most are in the library's units already.
    public static func shownDecimals<Bytes: Collection<UInt8>>(ofWritten written: Bytes, convertedBy factor: Double) -> Int? {
        factor == 1 ? nil : shownDecimals(of: decimals(written: written), convertedBy: factor)
    }

    /// The decimals a number written with `sourceDecimals` of them keeps once multiplied by
    /// `factor` (4.5 oz x 29.57: none; 0.05 kg x 1000: none; 2.25 in x 2.54: two); nil when nothing was converted.
    public static func shownDecimals(of sourceDecimals: Int, convertedBy factor: Double) -> Int? {
        guard factor != 1, factor.isFinite, factor != 0 else { return nil }
        return max(0, min(6, sourceDecimals - Int(log10(abs(factor)).rounded(.down))))
    }

    /// How many decimals a written number has (`4.5`, `4.5oz`: one; `1,250`: none; `0,65`: two):
    /// the digits after its decimal point, a comma followed by other than three digits counting
    /// as one, as the readers take it.
    public static func decimals<Bytes: Collection<UInt8>>(written: Bytes) -> Int {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        // Read in place (a log's every number passes here): no copy of the bytes.
        var sawDigit = false
        var index = written.startIndex
        while index != written.endIndex {
            let byte = written[index]
            let next = written.index(after: index)
            if byte == 0x2E || byte == 0x2C {
                let following = written[next...].prefix(while: isDigit).count
                if byte == 0x2E || following != 3 { return following }
            } else if isDigit(byte) {
                sawDigit = true
            } else if sawDigit {
                // The number ended (`45g`): it had no decimals. A sign or space before it does not end it.
                return 0
            }
            index = next
        }
        return 0
    }
}
