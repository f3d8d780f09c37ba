import DossierCore
import DossierPhotos
import DossierTestSupport
import Foundation
import Testing

/// HEIC photos through the `dossier` binary, as a phone dump brings them.
@Suite("dossier import of HEIC photos", SharedCorpora.required)
struct HEICImportTests {
    let folder: TemporaryFolder

    static let iPhone = "heif/immich-test-assets/formats/heic/IMG_2682.heic"
    static let samsung = "heif/immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic"
    static let alpha = "heif/test-heic-images/image4.heic"

    init() throws {
        folder = try TemporaryFolder()
        for (corpus, name) in [(HEICImportTests.iPhone, "IMG_2682.HEIC"), (HEICImportTests.samsung, "20240112_213853.heic"),
                               (HEICImportTests.alpha, "sticker.heic")] {
            try folder.write(Array(try Data(contentsOf: SharedCorpora.url(corpus))), to: "dump/pets/leo/\(name)")
        }
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    func outcome(_ result: DossierBinary.Result, _ name: String) throws -> [String: Any] {
        try #require(result.outcomes.first { ($0["source"] as? String)?.hasSuffix("/\(name)") ?? false })
    }

    @Test("--json says when each photo was taken, with the offset from UTC its camera wrote and where the date came from, and the index keeps it")
    func takenWithItsOffset() throws {
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        // Samsung writes OffsetTimeOriginal; this iPhone 7 did not: its wall clock alone.
        #expect(try outcome(result, "20240112_213853.heic")["taken"] as? String == "2024-01-12T21:38:53-08:00")
        #expect(try outcome(result, "IMG_2682.HEIC")["taken"] as? String == "2019-03-21T11:04:22")
        #expect(try outcome(result, "20240112_213853.heic")["dateFrom"] as? String == "exif:DateTimeOriginal")
        #expect(try outcome(result, "IMG_2682.HEIC")["dateFrom"] as? String == "exif:DateTimeOriginal")
        let layout = LibraryLayout(root: folder.url.appendingPathComponent("Library"))
        let index = try #require(try LibraryIndex.openReadOnly(layout))
        defer { index.close() }
        let destination = try #require(try outcome(result, "20240112_213853.heic")["destination"] as? String)
        let relative = String(destination.dropFirst(layout.root.path.count + 1))
        #expect(try index.filedFile(at: relative)?.capturedAt == "2024-01-12T21:38:53-08:00")
    }

    @Test("Each HEIC is filed as it was with a JPEG beside it (a PNG for one with alpha), and --json names it")
    func filesHEICWithRenditions() throws {
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let iPhone = try outcome(result, "IMG_2682.HEIC")
        let destination = try #require(iPhone["destination"] as? String)
        #expect(destination.hasSuffix("pets/leo/photos/2019/2019-03-21_110422_\(String(ContentDigest(of: try bytes(folder.path("dump/pets/leo/IMG_2682.HEIC"))).hex.prefix(8))).heic"))
        #expect(try bytes(destination) == bytes(folder.path("dump/pets/leo/IMG_2682.HEIC")))
        let rendition = try #require(iPhone["rendition"] as? String)
        #expect(rendition == String(destination.dropLast(4)) + "jpg")
        let info = try JPEGCodec.info(try bytes(rendition))
        #expect((info.width, info.height) == (4032, 3024))

        let samsung = try outcome(result, "20240112_213853.heic")
        let portrait = try JPEGCodec.info(try bytes(try #require(samsung["rendition"] as? String)))
        #expect((portrait.width, portrait.height) == (3000, 4000))
        #expect((samsung["destination"] as? String)?.contains("/2024/2024-01-12_213853_") == true)
        // The Samsung file is a motion photo (its video in an 'mpvd' box, kept); the iPhone's is not.
        #expect(samsung["motion"] as? Bool == true)
        #expect(iPhone["motion"] == nil)

        let sticker = try outcome(result, "sticker.heic")
        let png = try #require(sticker["rendition"] as? String)
        #expect(png.hasSuffix(".png"))
        let inspection = try PNGCodec.inspect(try bytes(png))
        #expect((inspection.width, inspection.height, inspection.colorType) == (700, 476, 6))
    }

    @Test("--renditions none files the HEIC alone")
    func withoutRenditions() throws {
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--renditions", "none"],
                                           in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let filed = try FileManager.default.subpathsOfDirectory(atPath: folder.path("Library/pets/leo/photos"))
            .filter { $0.contains(".") }
        #expect(filed.count == 3)
        #expect(filed.allSatisfy { $0.hasSuffix(".heic") })
        #expect(result.outcomes.allSatisfy { $0["rendition"] == nil })
    }

    @Test("Imported again, each HEIC is a duplicate; a rebuilt index holds the HEICs, not their renditions")
    func reimportAndRebuild() throws {
        try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
        let again = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(again.outcomes.map { $0["status"] as? String } == ["duplicate", "duplicate", "duplicate"])
        let rebuilt = try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url)
        #expect(rebuilt.status == 0, "\(rebuilt.standardError)")
        #expect(rebuilt.standardOutput.contains("3 photos"), "\(rebuilt.standardOutput)")
    }

    static func liveMovie() -> [UInt8] {
        var movie = TestMovie()
        movie.mediaBytes = 48_000
        movie.quickTimeMetadata = [("com.apple.quicktime.creationdate", "2019-03-21T11:04:22+0100"),
                                   ("com.apple.quicktime.content.identifier", "B3A1F5C2-7D4E-4A8B-9C0D-1E2F3A4B5C6D")]
        return movie.bytes
    }

    @Test("A Live Photo's movie is filed beside its HEIC under the same name, whichever is filed first")
    func livePhotoTogether() throws {
        try folder.write(HEICImportTests.liveMovie(), to: "dump/pets/leo/IMG_2682.MOV")
        let result = try DossierBinary.run(["import", "--create", "dump/pets/leo/IMG_2682.MOV", "dump/pets/leo/IMG_2682.HEIC",
                                            "--library", "Library", "--json", "--jobs", "2"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let heic = try #require(try outcome(result, "IMG_2682.HEIC")["destination"] as? String)
        let movie = try #require(try outcome(result, "IMG_2682.MOV")["destination"] as? String)
        #expect(movie == String(heic.dropLast(4)) + "mov")
        #expect(try bytes(movie) == HEICImportTests.liveMovie())
    }

    @Test("A movie arriving after its still has left the folder (--move, the daemon) still finds it, through the index")
    func livePhotoAfterTheStillLeft() throws {
        let first = try DossierBinary.run(["import", "--create", "dump/pets/leo/IMG_2682.HEIC", "--library", "Library", "--json", "--move"],
                                          in: folder.url)
        let heic = try #require(first.outcomes.first?["destination"] as? String)
        #expect(!FileManager.default.fileExists(atPath: folder.path("dump/pets/leo/IMG_2682.HEIC")))
        try folder.write(HEICImportTests.liveMovie(), to: "dump/pets/leo/IMG_2682.MOV")
        let second = try DossierBinary.run(["import", "--create", "dump/pets/leo/IMG_2682.MOV", "--library", "Library", "--json", "--move"],
                                           in: folder.url)
        #expect(second.outcomes.first?["destination"] as? String == String(heic.dropLast(4)) + "mov")
        #expect(second.outcomes.first?["sourceRemoved"] as? Bool == true)
    }

    @Test("A movie imported before its still is brought beside it when the still comes; a damaged one is left where it is",
          arguments: [false, true])
    func movieBeforeItsStill(damaged: Bool) throws {
        // The still is not in the folder yet when the movie is imported.
        let still = folder.path("dump/pets/leo/IMG_2682.HEIC")
        try FileManager.default.moveItem(atPath: still, toPath: folder.path("held.heic"))
        try folder.write(HEICImportTests.liveMovie(), to: "dump/pets/leo/IMG_2682.MOV")
        let first = try DossierBinary.run(["import", "--create", "dump/pets/leo/IMG_2682.MOV", "--library", "Library", "--json"],
                                          in: folder.url)
        let alone = try #require(first.outcomes.first?["destination"] as? String)
        #expect(alone.contains("/pets/leo/videos/2019/2019-03-21_110422_"))
        if damaged { try Data([0x00, 0x01]).write(to: URL(fileURLWithPath: alone)) }
        try FileManager.default.moveItem(atPath: folder.path("held.heic"), toPath: still)

        let second = try DossierBinary.run(["import", "--create", "dump/pets/leo/IMG_2682.HEIC", "--library", "Library", "--json"],
                                           in: folder.url)
        #expect(second.status == 0, "\(second.standardError)")
        let heic = try #require(second.outcomes.first?["destination"] as? String)
        let beside = String(heic.dropLast(4)) + "mov"
        let warnings = second.outcomes.first?["warnings"] as? [String] ?? []
        if damaged {
            #expect(warnings.isEmpty)
            #expect(FileManager.default.fileExists(atPath: alone))
            #expect(!FileManager.default.fileExists(atPath: beside))
        } else {
            #expect(warnings == ["its Live Photo movie, filed before it, now lies beside it: \(beside)"])
            #expect(try bytes(beside) == HEICImportTests.liveMovie())
            #expect(!FileManager.default.fileExists(atPath: alone))
            // The index followed it: the movie imported again is a duplicate of the file beside its still.
            let again = try DossierBinary.run(["import", "--create", "dump/pets/leo/IMG_2682.MOV", "--library", "Library", "--json"],
                                              in: folder.url)
            #expect(again.outcomes.first?["status"] as? String == "duplicate")
            #expect(again.outcomes.first?["destination"] as? String == beside)
        }
    }

    @Test("A rendition left by a run stopped before its HEIC was linked is kept, and the HEIC filed beside it")
    func renditionLeftByAStoppedRun() throws {
        let first = try DossierBinary.run(["import", "--create", "dump/pets/leo/IMG_2682.HEIC", "--library", "Library", "--json"],
                                          in: folder.url)
        let heic = try #require(first.outcomes.first?["destination"] as? String)
        let rendition = try #require(first.outcomes.first?["rendition"] as? String)
        let renditionBytes = try bytes(rendition)
        // What a kill between the two links leaves: the rendition, and no HEIC (nor its index row).
        try FileManager.default.removeItem(atPath: heic)
        try FileManager.default.removeItem(atPath: folder.path("Library/.dossier/index.sqlite"))

        let second = try DossierBinary.run(["import", "--create", "dump/pets/leo/IMG_2682.HEIC", "--library", "Library", "--json"],
                                           in: folder.url)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.outcomes.first?["status"] as? String == "imported")
        #expect(second.outcomes.first?["destination"] as? String == heic)
        #expect(try bytes(heic) == bytes(folder.path("dump/pets/leo/IMG_2682.HEIC")))
        #expect(try bytes(rendition) == renditionBytes)
    }

    @Test("A JPEG with no date inside it is dated by the date in its name, and --json says where the date came from")
    func dateFromTheFileName() throws {
        let folder = try TemporaryFolder()
        let sample = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/pets/leo/IMG_0001.JPG")))
        // Its EXIF segment (APP1, `Exif\0\0`) cut out: nothing inside it says when it was taken.
        let exifMark: [UInt8] = [0xFF, 0xE1]
        let exifName = Array("Exif".utf8)
        let exifStart = try #require((2..<(sample.count - 10)).first { (start: Int) -> Bool in
            Array(sample[start..<(start + 2)]) == exifMark && Array(sample[(start + 4)..<(start + 8)]) == exifName
        })
        let length = Int(sample[exifStart + 2]) << 8 | Int(sample[exifStart + 3])
        let bare = Array(sample[..<exifStart]) + Array(sample[(exifStart + 2 + length)...])
        try folder.write(bare, to: "dump/pets/leo/IMG_20170101_010101.jpg")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let filed = try outcome(result, "IMG_20170101_010101.jpg")
        #expect(filed["taken"] as? String == "2017-01-01T01:01:01")
        #expect(filed["dateFrom"] as? String == "filename")
        #expect((filed["destination"] as? String)?.contains("/pets/leo/photos/2017/2017-01-01_010101_") == true, "\(filed)")
    }
}
