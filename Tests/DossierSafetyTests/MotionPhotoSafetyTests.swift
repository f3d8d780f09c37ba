import DossierCore
import DossierPhotos
import Foundation
import DossierTestSupport
import Testing

/// Motion photos (Google MicroVideo, Samsung) keep their video after the picture's end: turning
/// the picture must carry every one of those bytes over, or the video is lost.
@Suite("A motion photo keeps its video")
struct MotionPhotoSafetyTests {
    /// A small but well-formed MP4: ftyp, moov with an mvhd, and an mdat of `payload` random bytes
    /// (from `seed`).
    static func mp4(payload: Int, seed: TestSeed) -> [UInt8] {
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + body.count)
            return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + body
        }
        let ftyp = box("ftyp", Array("mp42".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8))
        let mvhd = box("mvhd", [UInt8](repeating: 0, count: 100))
        var generator = seed.generator
        let media = (0..<payload).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return ftyp + box("moov", mvhd) + box("mdat", media)
    }

    /// A sideways JPEG with Google's MicroVideo XMP, and the video after its end-of-image marker.
    static func motionPhoto(video: [UInt8]) -> [UInt8] {
        let jpeg = SafetyFixtures.jpeg(width: 64, height: 48, orientation: 6, seed: 11)
        let xmp = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1" \
            GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="\(video.count)"/></rdf:RDF></x:xmpmeta>
            """.utf8)
        let length = xmp.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + xmp + jpeg.dropFirst(2) + video
    }

    @Test("Turned upright, a motion photo ends with its video byte for byte, where its XMP offset says", arguments: [false, true])
    func theVideoSurvivesTheTurn(moving: Bool) throws {
        let folder = try TemporaryFolder()
        let seed = TestSeed()
        let video = MotionPhotoSafetyTests.mp4(payload: 50_000, seed: seed)
        try folder.write(MotionPhotoSafetyTests.motionPhoto(video: video), to: "dump/pets/leo/PXL_20240302_141503.MP.jpg")

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"] + (moving ? ["--move"] : []),
                                           in: folder.url)
        #expect(result.status == 0, "\(seed)\n\(result.standardOutput)")
        let destination = try #require(result.outcomes.first?["destination"] as? String, "\(seed)")
        #expect(result.outcomes.first?["motion"] as? Bool == true, "\(seed)")
        let filed = try #require(SafetyFixtures.contents(destination))
        #expect(Array(filed.suffix(video.count)) == video, "\(seed)")
        // The offset counts from the end of the file: it still finds the video's first box.
        let start = filed.count - video.count
        #expect(Array(filed[(start + 4)..<(start + 8)]) == Array("ftyp".utf8), "\(seed)")
        #expect(String(decoding: filed, as: UTF8.self).contains("GCamera:MicroVideoOffset=\"\(video.count)\""))
        // And the picture is upright: 48 wide, 64 high.
        let info = try JPEGCodec.info(filed)
        #expect((info.width, info.height) == (48, 64))
        #expect(moving == !FileManager.default.fileExists(atPath: folder.path("dump/pets/leo/PXL_20240302_141503.MP.jpg")))
    }

    /// An older Galaxy's motion photo: a JPEG, then Samsung's trailer: the `MotionPhoto_Data` block
    /// holding the video, the `SEFH` directory that points back at it, its length and `SEFT`.
    static func samsungMotionPhoto(video: [UInt8]) -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        let block = [0, 0, 0x30, 0x0A] + le32(16) + Array("MotionPhoto_Data".utf8) + video
        let directory = Array("SEFH".utf8) + le32(106) + le32(1) + [0, 0, 0x30, 0x0A] + le32(block.count) + le32(block.count)
        return SafetyFixtures.jpeg(width: 64, height: 48, orientation: 6, seed: 12) + block + directory
            + le32(directory.count) + Array("SEFT".utf8)
    }

    @Test("An older Galaxy's motion photo (its video in the SEF trailer) is turned upright with its trailer whole, and said to be one")
    func samsungTrailerSurvivesTheTurn() throws {
        let folder = try TemporaryFolder()
        let seed = TestSeed()
        let source = MotionPhotoSafetyTests.samsungMotionPhoto(video: MotionPhotoSafetyTests.mp4(payload: 30_000, seed: seed))
        try folder.write(source, to: "dump/pets/leo/20240302_141503.jpg")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        #expect(result.status == 0, "\(seed)\n\(result.standardOutput)")
        #expect(result.outcomes.first?["motion"] as? Bool == true, "\(seed)")
        let destination = try #require(result.outcomes.first?["destination"] as? String, "\(seed)")
        let filed = try #require(SafetyFixtures.contents(destination))
        // Everything after the end-of-image marker, the trailer whose offsets count from its own end, as it was.
        let trailer = source.count - SafetyFixtures.jpeg(width: 64, height: 48, orientation: 6, seed: 12).count
        #expect(Array(filed.suffix(trailer)) == Array(source.suffix(trailer)), "\(seed)")
        let info = try JPEGCodec.info(filed)
        #expect((info.width, info.height) == (48, 64))
    }
}
