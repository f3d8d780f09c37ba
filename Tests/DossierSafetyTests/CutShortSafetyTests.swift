import DossierPhotos
import DossierTestSupport
import Foundation
import Testing

/// A file cut short (a download stopped, a card pulled, a copy that ran out of room) is still
/// the user's bytes: every format files it as it is and says it is damaged, as JPEG and PNG do,
/// never as whole; each one whole is never called damaged.
@Suite("Files cut short, in every format", .serialized)
struct CutShortSafetyTests {
    static func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    static func be(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

    /// Bytes that never repeat, for pixels, samples and media data.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    static let width = 48, height = 32
    static var pixels: [UInt8] {
        (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / (width * 3) * 13) }
    }

    /// A 24-bit BMP, rows bottom up, each padded to four bytes.
    static var bmp: [UInt8] {
        let row = (width * 3 + 3) / 4 * 4
        let data = noise(row * height, seed: 3)
        let info = le(40, 4) + le(width, 4) + le(height, 4) + le(1, 2) + le(24, 2) + le(0, 4) + le(data.count, 4)
            + le(2835, 4) + le(2835, 4) + le(0, 4) + le(0, 4)
        return Array("BM".utf8) + le(54 + data.count, 4) + le(0, 4) + le(54, 4) + info + data
    }

    /// An EBML element: its id's bytes, its size as an eight-byte variable-length integer, its data.
    static func ebml(_ id: [UInt8], _ data: [UInt8]) -> [UInt8] { id + [0x01] + be(data.count, 7) + data }

    /// A Matroska file: its EBML header (DocType `matroska`), then a segment of known size
    /// holding an Info element and a cluster of media data.
    static var mkv: [UInt8] {
        let header = ebml([0x1A, 0x45, 0xDF, 0xA3], [0x42, 0x82, 0x88] + Array("matroska".utf8))
        let info = ebml([0x15, 0x49, 0xA9, 0x66], [0x2A, 0xD7, 0xB1, 0x83, 0x0F, 0x42, 0x40])
        let cluster = ebml([0x1F, 0x43, 0xB6, 0x75], noise(6000, seed: 5))
        return header + ebml([0x18, 0x53, 0x80, 0x67], info + cluster)
    }

    /// An MP3: an ID3v2.3 tag, then 24 MPEG-1 Layer III frames of 128 kbit/s at 44.1 kHz (417
    /// bytes each, header included).
    static var mp3: [UInt8] {
        let tag = Array("ID3".utf8) + [3, 0, 0] + [0, 0, 0, 10] + Array("TIT2".utf8) + [0, 0, 0, 0, 0, 0]
        let frames = (0..<24).flatMap { frame -> [UInt8] in [0xFF, 0xFB, 0x90, 0x64] + noise(413, seed: UInt64(frame)) }
        return tag + frames
    }

    /// A RIFF file of `form` (`AVI `, `WAVE`) holding `chunks`.
    static func riff(_ form: String, _ chunks: [(String, [UInt8])]) -> [UInt8] {
        let body = Array(form.utf8) + chunks.flatMap { Array($0.0.utf8) + le($0.1.count, 4) + $0.1 + ($0.1.count % 2 == 1 ? [0] : []) }
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }

    static var avi: [UInt8] { riff("AVI ", [("LIST", Array("hdrl".utf8) + noise(200, seed: 7)), ("LIST", Array("movi".utf8) + noise(6000, seed: 8))]) }
    static var wav: [UInt8] {
        riff("WAVE", [("fmt ", le(1, 2) + le(1, 2) + le(8000, 4) + le(16000, 4) + le(2, 2) + le(16, 2)), ("data", noise(8000, seed: 9))])
    }

    /// Each format whole, as its writer makes it: libvips for the pictures it writes (libtiff
    /// puts a TIFF's directory after its pixels; JPEG XL a bare codestream), by hand for the rest.
    static func whole(_ format: String) throws -> [UInt8] {
        switch format {
        case "jpg": return SafetyFixtures.jpeg(width: 256, height: 192, orientation: 1, seed: 3)
        case "png", "tif", "jxl", "webp", "gif":
            return try VipsCodec.encode(rgb: pixels, width: width, height: height, suffix: ".\(format)")
        case "bmp": return bmp
        case "mkv": return mkv
        case "mp3": return mp3
        case "avi": return avi
        default: return wav
        }
    }

    /// Imports `bytes` as `name` under pets/rex; its --json outcome.
    static func imported(_ bytes: [UInt8], as name: String, in folder: TemporaryFolder) throws -> [String: Any] {
        let path = try folder.write(bytes, to: "dump/\(name)")
        let result = try DossierBinary.run(["import", path, "--subject", "pets/rex", "--library", "Library", "--json"], in: folder.url)
        return try #require(result.outcomes.first, "\(result.standardOutput)\(result.standardError)")
    }

    @Test("A file cut in half is filed as it is and said damaged, in every format; whole, it is filed and never said damaged",
          arguments: ["jpg", "png", "tif", "bmp", "jxl", "webp", "gif", "mkv", "avi", "mp3", "wav"])
    func cutInHalf(_ format: String) throws {
        let folder = try TemporaryFolder()
        _ = try DossierBinary.run(["subjects", "add", "pets/rex", "--name", "Rex", "--library", "Library"], in: folder.url)
        let whole = try CutShortSafetyTests.whole(format)
        let wholeOutcome = try CutShortSafetyTests.imported(whole, as: "whole.\(format)", in: folder)
        #expect(wholeOutcome["status"] as? String == "imported", "\(wholeOutcome)")
        #expect(wholeOutcome["damaged"] == nil, "\(wholeOutcome)")

        let half = Array(whole.prefix(whole.count / 2))
        let outcome = try CutShortSafetyTests.imported(half, as: "half.\(format)", in: folder)
        #expect(outcome["status"] as? String == "imported", "\(outcome)")
        #expect(outcome["damaged"] as? Bool == true, "\(outcome)")
        let warnings = outcome["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.hasPrefix("damaged (") && $0.contains("filed byte for byte as it is") }, "\(warnings)")
        // Filed byte for byte: its bytes, whole as they came, are in the library.
        let destination = try #require(outcome["destination"] as? String)
        #expect(SafetyFixtures.contents(destination) == half)
    }

    @Test("A movie whose index holds no track is failed, saying it has no tracks: filed neither as a video nor as audio")
    func movieWithNoTracks() throws {
        let folder = try TemporaryFolder()
        _ = try DossierBinary.run(["subjects", "add", "pets/rex", "--name", "Rex", "--library", "Library"], in: folder.url)
        var movie = TestMovie()
        movie.majorBrand = "mp42"
        movie.compatibleBrands = ["mp42", "isom"]
        movie.hasVideo = false
        movie.hasSound = false
        let path = try folder.write(movie.bytes, to: "dump/empty.mp4")
        let result = try DossierBinary.run(["import", path, "--subject", "pets/rex", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        let outcome = try #require(result.outcomes.first)
        #expect(outcome["status"] as? String == "failed")
        #expect(outcome["stage"] as? String == "read")
        #expect(outcome["error"] as? String == "\(path): the movie has no tracks (its 'moov' box holds no 'trak'): nothing in it plays, "
            + "so it is filed neither as a video nor as audio")
        #expect(folder.files(under: "Library/pets/rex").filter { !$0.hasSuffix("profile.json") }.isEmpty)
        // With its sound track it is sound, filed as audio, as before.
        movie.hasSound = true
        let sound = try folder.write(movie.bytes, to: "dump/memo.mp4")
        let filed = try DossierBinary.run(["import", sound, "--subject", "pets/rex", "--library", "Library", "--json"], in: folder.url)
        #expect(filed.outcomes.first?["format"] as? String == "m4a", "\(filed.standardOutput)")
    }
}
