import Crypto

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
