import Foundation

/// Builds movies the way phones write them, box by box (ISO/IEC 14496-12 and Apple's QuickTime
/// metadata): `ftyp`, then `moov` with `mvhd`, a video track's `tkhd` (its matrix turning it),
/// a sound track, and QuickTime `keys`/`ilst` metadata, then `mdat` with media bytes that never
/// repeat. What the movie's box reader must find is in the places real files put it.
public struct TestMovie {
    public var majorBrand = "qt  "
    public var compatibleBrands = ["qt  "]
    /// The `mvhd` creation time, seconds since 1904-01-01 UTC (0: unknown).
    public var movieHeaderCreation: UInt64 = 0
    /// How long it plays, in units of 1/600 s (the `mvhd` time scale): 10 s unless set.
    public var durationUnits: UInt64 = 6000
    /// Write `mvhd` and `tkhd` as version 1 (64-bit times), as long recordings need.
    public var version1 = false
    /// Clockwise degrees the video track's matrix turns the picture: 0, 90, 180 or 270.
    public var rotation = 0
    /// `com.apple.quicktime.*` keys and values (creationdate, content.identifier, make, model...).
    public var quickTimeMetadata: [(String, String)] = []
    /// How many bytes of media follow in `mdat`.
    public var mediaBytes = 20_000
    /// Where the metadata sits: `moov/meta` (QuickTime) or `moov/udta/meta` as a full box (MP4 writers).
    public var metadataInUserData = false
    /// Whether it has a video track; without one it is sound alone (an M4A, a voice memo).
    public var hasVideo = true
    /// Whether it has a sound track; with neither, its `moov` holds no track at all.
    public var hasSound = true

    public init() {}

    /// Seconds since 1904-01-01 UTC for a date.
    public static func quickTimeSeconds(_ date: Date) -> UInt64 { UInt64(date.timeIntervalSince1970 + 2_082_844_800) }

    public var bytes: [UInt8] {
        let ftyp = TestMovie.box("ftyp", Array(majorBrand.utf8) + [0, 0, 0, 0] + compatibleBrands.flatMap { Array($0.utf8) })
        var moov = movieHeader() + (hasVideo ? track(width: 1920, height: 1080) : []) + (hasSound ? track(width: 0, height: 0) : [])
        if !quickTimeMetadata.isEmpty {
            moov += metadataInUserData ? TestMovie.box("udta", metadata(fullBox: true)) : metadata(fullBox: false)
        }
        var generator = SeededGenerator(seed: UInt64(mediaBytes) &+ movieHeaderCreation &+ UInt64(rotation))
        let media = (0..<mediaBytes).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        return ftyp + TestMovie.box("moov", moov) + TestMovie.box("mdat", media)
    }

    private func movieHeader() -> [UInt8] {
        var body: [UInt8] = version1 ? [1, 0, 0, 0] : [0, 0, 0, 0]
        body += version1 ? TestMovie.be64(movieHeaderCreation) + TestMovie.be64(movieHeaderCreation)
                         : TestMovie.be32(UInt32(movieHeaderCreation)) + TestMovie.be32(UInt32(movieHeaderCreation))
        body += TestMovie.be32(600) + (version1 ? TestMovie.be64(durationUnits) : TestMovie.be32(UInt32(durationUnits)))
        body += TestMovie.be32(0x0001_0000) + [0x01, 0x00] + [UInt8](repeating: 0, count: 10)
        body += TestMovie.matrix(degrees: 0) + [UInt8](repeating: 0, count: 24) + TestMovie.be32(3)
        return TestMovie.box("mvhd", body)
    }

    private func track(width: UInt32, height: UInt32) -> [UInt8] {
        var body: [UInt8] = version1 ? [1, 0, 0, 7] : [0, 0, 0, 7]
        body += version1 ? TestMovie.be64(movieHeaderCreation) + TestMovie.be64(movieHeaderCreation)
                         : TestMovie.be32(UInt32(movieHeaderCreation)) + TestMovie.be32(UInt32(movieHeaderCreation))
        body += TestMovie.be32(width > 0 ? 1 : 2) + TestMovie.be32(0) + (version1 ? TestMovie.be64(6000) : TestMovie.be32(6000))
        body += [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0] + (width > 0 ? [0, 0] : [1, 0]) + [0, 0]
        body += TestMovie.matrix(degrees: width > 0 ? rotation : 0)
        body += TestMovie.be32(width << 16) + TestMovie.be32(height << 16)
        let hdlr = TestMovie.box("hdlr", [0, 0, 0, 0] + [0, 0, 0, 0] + Array((width > 0 ? "vide" : "soun").utf8)
                                 + [UInt8](repeating: 0, count: 13))
        return TestMovie.box("trak", TestMovie.box("tkhd", body) + TestMovie.box("mdia", hdlr))
    }

    private func metadata(fullBox: Bool) -> [UInt8] {
        let hdlr = TestMovie.box("hdlr", [0, 0, 0, 0] + [0, 0, 0, 0] + Array("mdta".utf8) + [UInt8](repeating: 0, count: 13))
        var keys: [UInt8] = [0, 0, 0, 0] + TestMovie.be32(UInt32(quickTimeMetadata.count))
        var items: [UInt8] = []
        for (index, (key, value)) in quickTimeMetadata.enumerated() {
            keys += TestMovie.be32(UInt32(8 + key.utf8.count)) + Array("mdta".utf8) + Array(key.utf8)
            let data = TestMovie.box("data", TestMovie.be32(1) + TestMovie.be32(0) + Array(value.utf8))
            items += TestMovie.be32(UInt32(8 + data.count)) + TestMovie.be32(UInt32(index + 1)) + data
        }
        let body = hdlr + TestMovie.box("keys", keys) + TestMovie.box("ilst", items)
        return TestMovie.box("meta", (fullBox ? [0, 0, 0, 0] : []) + body)
    }

    public static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + body.count)) + Array(type.utf8) + body
    }

    static func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
    static func be64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    /// A track matrix turning the picture clockwise by `degrees`, in 16.16 (and 2.30 for w).
    static func matrix(degrees: Int) -> [UInt8] {
        let one: Int32 = 0x0001_0000
        let (a, b, c, d): (Int32, Int32, Int32, Int32) = switch degrees {
        case 90: (0, one, -one, 0)
        case 180: (-one, 0, 0, -one)
        case 270: (0, -one, one, 0)
        default: (one, 0, 0, one)
        }
        return [a, b, 0, c, d, 0, 0, 0, 0x4000_0000].flatMap { be32(UInt32(bitPattern: $0)) }
    }
}
