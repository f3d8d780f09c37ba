import DossierCore
import Foundation

/// What Dossier reads from a movie's `moov` box (MOV, MP4, M4V, 3GP): when it was taken, how
/// players turn it, and the Live Photo identifier Apple gives a photo's movie.
struct MovieFacts: Sendable, Equatable {
    /// `com.apple.quicktime.creationdate`, as the camera's wall clock showed it (the text carries
    /// its offset, e.g. `2024-01-12T21:38:53-0800`).
    var quickTimeCreationDate: LocalDateTime?
    /// The offset that ends the creation date's text, when it has one.
    var quickTimeCreationOffset: UTCOffset?
    /// The `mvhd` creation time (UTC); nil when zero (1904-01-01, what encoders write for "unknown").
    var movieHeaderCreation: Date?
    /// The first video track's turn, clockwise degrees (0, 90, 180, 270), from its `tkhd` matrix.
    var rotation: Int?
    /// `com.apple.quicktime.content.identifier`: shared by a Live Photo's photo and movie.
    var contentIdentifier: String?
    /// How long it plays, in seconds (the `mvhd` duration over its time scale); nil when the
    /// header gives no time scale or no duration.
    var duration: Double?
    /// How many tracks (`trak` boxes) it holds: none, and nothing in it plays.
    var tracks = 0

    /// Seconds from 1904-01-01 (the QuickTime epoch) to 1970-01-01.
    static let quickTimeEpochOffset: TimeInterval = 2_082_844_800

    init(reading bytes: any RandomAccessBytes) throws(ContainerError) {
        let reader = ISOBoxReader(bytes)
        guard let moov = try reader.topLevelBeforeTrailer().first(where: { $0.type == "moov" }) else {
            throw ContainerError.malformed("no 'moov' box: the movie's index is missing (a recording cut off before it was finished?)")
        }
        let children = try reader.children(of: moov)
        if let mvhd = children.first(where: { $0.type == "mvhd" }) {
            let header = try reader.payload(of: mvhd)
            movieHeaderCreation = try MovieFacts.creation(inMovieHeader: header)
            duration = try MovieFacts.duration(inMovieHeader: header)
        }
        tracks = children.count { $0.type == "trak" }
        for trak in children where trak.type == "trak" {
            guard let tkhd = try reader.children(of: trak, depth: 2).first(where: { $0.type == "tkhd" }),
                  let turn = try MovieFacts.rotation(inTrackHeader: try reader.payload(of: tkhd))
            else { continue }
            rotation = turn
            break
        }
        // QuickTime keeps its metadata in moov/meta (keys + ilst); MP4 writers may put it in moov/udta/meta.
        var metas = children.filter { $0.type == "meta" }
        if let udta = children.first(where: { $0.type == "udta" }) {
            metas += try reader.children(of: udta, depth: 2).filter { $0.type == "meta" }
        }
        for meta in metas {
            let values = try MovieFacts.keyedValues(in: meta, reader: reader)
            if quickTimeCreationDate == nil, let text = values["com.apple.quicktime.creationdate"] {
                quickTimeCreationDate = MovieFacts.localDateTime(iso8601: text)
                if quickTimeCreationDate != nil { quickTimeCreationOffset = MovieFacts.utcOffset(iso8601: text) }
            }
            if contentIdentifier == nil { contentIdentifier = values["com.apple.quicktime.content.identifier"] }
        }
    }

    private static func creation(inMovieHeader payload: [UInt8]) throws(ContainerError) -> Date? {
        var cursor = ByteCursor(payload, box: "mvhd")
        let version = try cursor.uint8()
        try cursor.skip(3)
        let seconds = version == 1 ? try cursor.uint64() : UInt64(try cursor.uint32())
        guard seconds > 0, seconds < UInt64(Int64.max) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds) - quickTimeEpochOffset)
    }

    /// Version 0: creation, modification, time scale and duration, 4 bytes each; version 1: the
    /// times and the duration 8 bytes each. A duration of all ones means "unknown".
    private static func duration(inMovieHeader payload: [UInt8]) throws(ContainerError) -> Double? {
        var cursor = ByteCursor(payload, box: "mvhd")
        let version = try cursor.uint8()
        try cursor.skip(3 + (version == 1 ? 16 : 8))
        let scale = try cursor.uint32()
        let length = version == 1 ? try cursor.uint64() : UInt64(try cursor.uint32())
        guard scale > 0, length > 0, length != UInt64.max, !(version != 1 && length == UInt64(UInt32.max)) else { return nil }
        return Double(length) / Double(scale)
    }

    /// The turn of a track with pictures (a width and height); nil for sound tracks.
    private static func rotation(inTrackHeader payload: [UInt8]) throws(ContainerError) -> Int? {
        var cursor = ByteCursor(payload, box: "tkhd")
        let version = try cursor.uint8()
        try cursor.skip(3)
        // Times, track id, reserved and duration, then 8 reserved, layer, group, volume, reserved.
        try cursor.skip(version == 1 ? 32 : 20)
        try cursor.skip(16)
        var matrix: [Int32] = []
        for _ in 0..<9 { matrix.append(Int32(bitPattern: try cursor.uint32())) }
        let width = try cursor.uint32(), height = try cursor.uint32()
        guard width > 0, height > 0 else { return nil }
        // [a b u; c d v; x y w], a..d in 16.16 fixed point: (a, b) is where x's unit goes.
        let a = Double(matrix[0]) / 65536, b = Double(matrix[1]) / 65536
        let degrees = Int((atan2(b, a) * 180 / .pi).rounded())
        return (degrees + 360) % 360
    }

    /// The `mdta` keys of a metadata box and their UTF-8 values (`keys` names them, `ilst` holds
    /// them by 1-based index).
    private static func keyedValues(in meta: ISOBox, reader: ISOBoxReader) throws(ContainerError) -> [String: String] {
        // In QuickTime files `meta` is a plain box; in ISO files a full box (4 more header bytes).
        let head = try reader.bytes.read(at: meta.payloadStart, length: Int(min(8, meta.payloadLength)))
        let isFullBox = head.count == 8 && head[0..<4] == [0, 0, 0, 0]
        let boxes = try reader.children(of: meta, skipping: isFullBox ? 4 : 0, depth: 3)
        guard let keysBox = boxes.first(where: { $0.type == "keys" }),
              let ilst = boxes.first(where: { $0.type == "ilst" })
        else { return [:] }
        var keys: [String] = []
        var cursor = ByteCursor(try reader.payload(of: keysBox), box: "keys")
        try cursor.skip(4)
        let count = try cursor.uint32()
        for _ in 0..<count {
            let size = Int(try cursor.uint32())
            guard size >= 8 else { throw ContainerError.malformed("a key in 'keys' claims \(size) bytes") }
            _ = try cursor.fourCC()
            keys.append(String(decoding: try cursor.take(size - 8), as: UTF8.self))
        }
        var values: [String: String] = [:]
        for item in try reader.children(of: ilst, depth: 4) {
            let header = try reader.bytes.read(at: item.start + 4, length: 4)
            let index = Int(UInt32(bigEndianBytes: header))
            guard index >= 1, index <= keys.count,
                  let data = try reader.children(of: item, depth: 5).first(where: { $0.type == "data" }),
                  data.payloadLength <= 4096
            else { continue }
            var value = ByteCursor(try reader.payload(of: data), box: "data")
            let type = try value.uint32() & 0x00FF_FFFF
            try value.skip(4)
            guard type == 1 else { continue }
            values[keys[index - 1]] = String(decoding: try value.take(value.remaining), as: UTF8.self)
        }
        return values
    }

    /// The offset after the time of day (`-0800`, `+09:00`, `Z`), past any fraction of a second.
    static func utcOffset(iso8601 text: String) -> UTCOffset? {
        guard let time = text.firstIndex(of: "T") else { return nil }
        let rest = text[text.index(after: time)...]
        guard let sign = rest.firstIndex(where: { $0 == "+" || $0 == "-" || $0 == "Z" }) else { return nil }
        return UTCOffset(parsing: rest[sign...])
    }

    /// `2024-01-12T21:38:53-0800` as the wall clock it names (the offset says where that was).
    static func localDateTime(iso8601 text: String) -> LocalDateTime? {
        let digits = text.split(whereSeparator: { !$0.isNumber }).prefix(6).compactMap { Int($0) }
        guard digits.count == 6 else { return nil }
        return LocalDateTime(year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4],
                             second: digits[5])
    }
}
