import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// A camera set to RAW+JPEG writes each shot twice, `IMG_0001.DNG` and `IMG_0001.JPG`: the two
/// are filed beside each other under the JPEG's name, and the raw needs no rendition of its own.
/// Only when they say they were taken at the same time: a raw of the same name from another day
/// is a photo of its own.
@Suite("A raw and its camera's JPEG are filed beside each other under one name")
struct RawAndJPEGImportTests {
    let folder: TemporaryFolder
    /// The sample JPEG's DateTimeOriginal, width and height.
    static let sampleTaken = "2023:05:01 09:15:00"
    static let sampleSize = (width: 640, height: 480)

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The sample JPEG, and a DNG whose preview is that JPEG, taken at `taken`.
    func shot(_ stem: String, rawTaken taken: String = RawAndJPEGImportTests.sampleTaken, jpeg: Bool = true,
              raw: Bool = true) throws {
        let sample = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/pets/leo/IMG_0001.JPG")))
        if jpeg { try folder.write(sample, to: "dump/pets/leo/\(stem).JPG") }
        if raw {
            try folder.write(TestTIFF.dng(preview: sample, previewWidth: RawAndJPEGImportTests.sampleSize.width,
                                           previewHeight: RawAndJPEGImportTests.sampleSize.height, orientation: 1, taken: taken),
                             to: "dump/pets/leo/\(stem).DNG")
        }
    }

    func outcome(_ result: DossierBinary.Result, _ name: String) throws -> [String: Any] {
        try #require(result.outcomes.first { ($0["source"] as? String)?.hasSuffix("/\(name)") ?? false }, "\(result.standardOutput)")
    }

    func destination(_ result: DossierBinary.Result, _ name: String) throws -> String {
        try #require(try outcome(result, name)["destination"] as? String)
    }

    func stem(_ path: String) -> String { (path as NSString).deletingPathExtension }

    func importDump() throws -> DossierBinary.Result {
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        return result
    }

    @Test("Imported together, the raw is filed beside its JPEG under its name, byte for byte, and has no rendition")
    func together() throws {
        try shot("IMG_0001")
        let result = try importDump()
        let jpeg = try destination(result, "IMG_0001.JPG")
        let raw = try destination(result, "IMG_0001.DNG")
        #expect(raw == stem(jpeg) + ".dng")
        #expect(try outcome(result, "IMG_0001.DNG")["rendition"] == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: raw)) == Data(contentsOf: folder.url.appendingPathComponent("dump/pets/leo/IMG_0001.DNG")))
        // The JPEG in the library is the camera's, not a rendition made over it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: jpeg)).count > 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: (jpeg as NSString).deletingLastPathComponent).sorted()
        #expect(names == [(jpeg as NSString).lastPathComponent, (raw as NSString).lastPathComponent].sorted())
    }

    @Test("A raw of its JPEG's name taken hours apart is filed under its own name and date, with its own rendition")
    func notTheSameShot() throws {
        try shot("IMG_0001", rawTaken: "2023:05:01 13:40:00")
        let result = try importDump()
        let jpeg = try destination(result, "IMG_0001.JPG")
        let raw = try destination(result, "IMG_0001.DNG")
        #expect(stem(raw) != stem(jpeg))
        #expect((raw as NSString).lastPathComponent.hasPrefix("2023-05-01_134000_"))
        #expect(try outcome(result, "IMG_0001.DNG")["rendition"] as? String == stem(raw) + ".jpg", "\(result.standardOutput)")
    }

    @Test("Of two raws of the same shot (IMG_0001.DNG and IMG_0001.dng), one stands beside the JPEG, the other under its own name, said")
    func twoRawsOfOneShot() throws {
        try shot("IMG_0001")
        let sample = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/pets/leo/IMG_0001.JPG")))
        try folder.write(TestTIFF.dng(preview: sample, previewWidth: RawAndJPEGImportTests.sampleSize.width,
                                      previewHeight: RawAndJPEGImportTests.sampleSize.height, orientation: 1,
                                      taken: "2023:05:01 09:15:02"),
                         to: "dump/pets/leo/IMG_0001.dng")
        let result = try importDump()
        let jpeg = try destination(result, "IMG_0001.JPG")
        let raws = try ["IMG_0001.DNG", "IMG_0001.dng"].map { try outcome(result, $0) }
        let beside = raws.filter { ($0["destination"] as? String) == stem(jpeg) + ".dng" }
        let own = raws.filter { ($0["destination"] as? String) != stem(jpeg) + ".dng" }
        #expect(beside.count == 1 && own.count == 1, "\(raws)")
        #expect((own.first?["warnings"] as? [String])?.last
            == "its photo \(jpeg) has a file of its name beside it already: filed under its own name, without a rendition",
            "\(own)")
    }

    @Test("A raw whose JPEG was filed by an earlier import is filed beside it")
    func jpegFiledEarlier() throws {
        try shot("IMG_0001", raw: false)
        let first = try importDump()
        let jpeg = try destination(first, "IMG_0001.JPG")
        try shot("IMG_0001", jpeg: false)
        let second = try importDump()
        #expect(try destination(second, "IMG_0001.DNG") == stem(jpeg) + ".dng")
    }

    @Test("A raw filed alone by an earlier import is brought beside its JPEG when the JPEG comes, and its own rendition goes")
    func rawFiledEarlier() throws {
        try shot("IMG_0001", jpeg: false)
        let first = try importDump()
        let alone = try destination(first, "IMG_0001.DNG")
        let rendition = try #require(try outcome(first, "IMG_0001.DNG")["rendition"] as? String)
        try shot("IMG_0001", raw: false)
        let second = try importDump()
        let jpeg = try destination(second, "IMG_0001.JPG")
        #expect(FileManager.default.fileExists(atPath: stem(jpeg) + ".dng"))
        #expect(!FileManager.default.fileExists(atPath: alone))
        #expect(!FileManager.default.fileExists(atPath: rendition))
        #expect(try outcome(second, "IMG_0001.JPG")["warnings"] as? [String] == ["its raw, filed before it, now lies beside it: \(stem(jpeg)).dng"])
        // Known at its new name: imported again, the raw is a duplicate of the file beside the JPEG.
        let third = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(try outcome(third, "IMG_0001.DNG")["status"] as? String == "duplicate")
        #expect(try destination(third, "IMG_0001.DNG") == stem(jpeg) + ".dng")
    }

    @Test("A raw beside its JPEG stays there when another JPEG of its name and time comes later")
    func pairedRawStaysWithItsJPEG() throws {
        try shot("IMG_0001")
        let first = try importDump()
        let jpeg = try destination(first, "IMG_0001.JPG")
        // Another JPEG of the same name and second (an export of the same shot), other bytes.
        var other = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/pets/leo/IMG_0001.JPG")))
        other.insert(contentsOf: [0xFF, 0xFE, 0x00, 0x07] + Array("copy".utf8) + [0], at: 2)
        try folder.write(other, to: "dump/pets/leo/IMG_0001.JPG")
        let second = try importDump()
        #expect(stem(try destination(second, "IMG_0001.JPG")) != stem(jpeg))
        #expect(FileManager.default.fileExists(atPath: stem(jpeg) + ".dng"))
    }

    @Test("Through an index rebuild the camera's JPEG beside its raw stays a photo, and a lone raw's rendition stays a rendition")
    func throughIndexRebuild() throws {
        try shot("IMG_0001")
        try shot("IMG_0002", rawTaken: "2023:05:01 13:40:00", jpeg: false)
        let result = try importDump()
        let jpeg = try destination(result, "IMG_0001.JPG")
        let loneRendition = try #require(try outcome(result, "IMG_0002.DNG")["rendition"] as? String)
        #expect(try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url).status == 0)
        let layout = LibraryLayout(root: folder.url.appendingPathComponent("Library"))
        let index = try #require(try LibraryIndex.openReadOnly(layout))
        defer { index.close() }
        func relative(_ path: String) -> String { String(path.dropFirst(layout.root.path.count + 1)) }
        #expect(try index.filedFile(at: relative(jpeg)) != nil)
        #expect(try index.filedFile(at: relative(stem(jpeg) + ".dng")) != nil)
        #expect(try index.filedFile(at: relative(loneRendition)) == nil)
        #expect(try index.filedFile(at: relative(stem(loneRendition) + ".dng")) != nil)
    }
}
