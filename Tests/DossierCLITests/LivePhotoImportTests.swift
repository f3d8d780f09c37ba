import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// A Live Photo's still and movie end together, whichever comes first and whatever they are
/// called; a movie that only shares a name with a photo never takes its name or date.
@Suite("Live Photos pair by what they are, not by their names alone")
struct LivePhotoImportTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The sample Live Photo (`Samples/children/mina/IMG_0712.{HEIC,MOV}`: taken 2024-06-14
    /// 17:42:08, content identifier 4D2C8F31-...) under other names.
    func sample(_ name: String, to destination: String) throws {
        let bytes = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/children/mina/\(name)")))
        try folder.write(bytes, to: destination)
    }

    /// A movie of no Live Photo: no content identifier, its own creation date.
    static func movie(created: String, mediaBytes: Int = 20_000) -> [UInt8] {
        var movie = TestMovie()
        movie.quickTimeMetadata = [("com.apple.quicktime.creationdate", created)]
        movie.mediaBytes = mediaBytes
        return movie.bytes
    }

    func run(_ path: String, _ extra: [String] = []) throws -> DossierBinary.Result {
        let result = try DossierBinary.run(["import", "--create", path, "--library", "Library", "--json"] + extra, in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        return result
    }

    func destination(_ result: DossierBinary.Result, _ name: String) throws -> String {
        let outcome = try #require(result.outcomes.first { ($0["source"] as? String)?.hasSuffix("/\(name)") ?? false },
                                   "\(result.standardOutput)")
        return try #require(outcome["destination"] as? String, "\(outcome)")
    }

    func stem(_ path: String) -> String { (path as NSString).deletingPathExtension }

    @Test("The movie, renamed and in another folder, imported before its still, is brought beside it by the content identifier")
    func movieFirstByIdentifier() throws {
        try sample("IMG_0712.MOV", to: "phone/children/mina/clip.mov")
        let first = try run("phone")
        #expect(try destination(first, "clip.mov").contains("/children/mina/videos/2024/"))
        try sample("IMG_0712.HEIC", to: "camera/children/mina/IMG_0712.HEIC")
        let second = try run("camera")
        let still = try destination(second, "IMG_0712.HEIC")
        #expect(FileManager.default.fileExists(atPath: stem(still) + ".mov"))
        #expect(folder.files(under: "Library/children/mina/videos").isEmpty)
    }

    @Test("In one import, the movie renamed in another folder and settled before its still is brought beside it")
    func movieFirstInOneImport() throws {
        // One at a time, the movie's folder first: it is filed, alone, before the still is read.
        try sample("IMG_0712.MOV", to: "dump/a-phone/children/mina/clip.mov")
        try sample("IMG_0712.HEIC", to: "dump/b-camera/children/mina/IMG_0712.HEIC")
        let result = try run("dump", ["--jobs", "1"])
        let still = try destination(result, "IMG_0712.HEIC")
        #expect(FileManager.default.fileExists(atPath: stem(still) + ".mov"))
        #expect(folder.files(under: "Library/children/mina/videos").isEmpty)
    }

    @Test("A Live Photo's movie shared into another child's folder, its still filed for the first, is a video of its own there; verify is clean, and after index rebuild too")
    func movieWhoseStillIsUnderAnotherSubject() throws {
        try sample("IMG_0712.HEIC", to: "a/IMG_0712.HEIC")
        try sample("IMG_0712.MOV", to: "b/IMG_0712.MOV")
        let still = try destination(try run("a", ["--subject", "children/a"]), "IMG_0712.HEIC")
        #expect(still.contains("/Library/children/a/photos/2024/"))
        let movie = try destination(try run("b", ["--subject", "children/b"]), "IMG_0712.MOV")
        let bytes = try #require(FileManager.default.contents(atPath: folder.path("b/IMG_0712.MOV")))
        // Its own name (its own digest) in b's videos, not the still's name in b's photos.
        let digest = ContentDigest(of: Array(bytes))
        #expect(movie.hasPrefix(folder.path("Library/children/b/videos/2024/2024-06-14_174208_\(digest.shortHex)")), "\(movie)")
        #expect(folder.files(under: "Library/children/b/photos").isEmpty)
        #expect(FileManager.default.contents(atPath: movie) == bytes)
        for command in [["verify"], ["index", "rebuild"], ["verify"]] {
            let result = try DossierBinary.run(command + ["--library", "Library"], in: folder.url)
            #expect(result.status == 0, "\(command): \(result.standardOutput)\(result.standardError)")
        }
    }

    @Test("A Live Photo's movie filed alone for a child, its still filed for another, joins the still once that is imported for it too")
    func movieAloneJoinsItsStillImportedLater() throws {
        try sample("IMG_0712.HEIC", to: "a/IMG_0712.HEIC")
        try sample("IMG_0712.MOV", to: "b/IMG_0712.MOV")
        _ = try run("a", ["--subject", "children/a"])
        let movie = try destination(try run("b", ["--subject", "children/b"]), "IMG_0712.MOV")
        let bytes = FileManager.default.contents(atPath: movie)
        try sample("IMG_0712.HEIC", to: "b2/IMG_0712.HEIC")
        let still = try destination(try run("b2", ["--subject", "children/b"]), "IMG_0712.HEIC")
        #expect(still.contains("/Library/children/b/photos/2024/"))
        #expect(FileManager.default.contents(atPath: stem(still) + ".mov") == bytes)
        #expect(folder.files(under: "Library/children/b/videos").isEmpty)
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
    }

    @Test("The still first, then its movie renamed in another folder: the movie finds it in the index by the content identifier")
    func stillFirstByIdentifier() throws {
        try sample("IMG_0712.HEIC", to: "camera/children/mina/IMG_0712.HEIC")
        let still = try destination(try run("camera"), "IMG_0712.HEIC")
        try sample("IMG_0712.MOV", to: "phone/children/mina/clip.mov")
        #expect(try destination(try run("phone"), "clip.mov") == stem(still) + ".mov")
    }

    @Test("An unrelated 2020 IMG_0712.MOV arriving after the IMG_0712 pair was filed keeps its own name and date")
    func laterMovieOfTheSameName() throws {
        try sample("IMG_0712.HEIC", to: "dump/children/mina/IMG_0712.HEIC")
        try sample("IMG_0712.MOV", to: "dump/children/mina/IMG_0712.MOV")
        let pair = try run("dump", ["--move"])
        #expect(try destination(pair, "IMG_0712.MOV") == stem(try destination(pair, "IMG_0712.HEIC")) + ".mov")
        try folder.write(LivePhotoImportTests.movie(created: "2020-01-30T09:57:18+0900"), to: "dump/children/mina/IMG_0712.MOV")
        let later = try destination(try run("dump"), "IMG_0712.MOV")
        #expect(later.contains("/children/mina/videos/2020/2020-01-30_095718_"), "\(later)")
    }

    @Test("A movie named like the photo beside it but taken at another time is a video of its own (exif.mp4 beside exif.jpg)")
    func sameNameOtherTime() throws {
        let photo = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/pets/leo/IMG_0001.JPG")))
        try folder.write(photo, to: "dump/pets/leo/exif.jpg")
        try folder.write(LivePhotoImportTests.movie(created: "2019-08-01T10:00:00+0200"), to: "dump/pets/leo/exif.mov")
        let result = try run("dump")
        #expect(try destination(result, "exif.mov").contains("/pets/leo/videos/2019/2019-08-01_100000_"))
        #expect(try destination(result, "exif.jpg").contains("/pets/leo/photos/2023/"))
    }

    @Test("A still that has its movie keeps it: another movie of its name and time is a video of its own, never a second beside it")
    func completePairIsNotJoined() throws {
        try sample("IMG_0712.HEIC", to: "dump/children/mina/IMG_0712.HEIC")
        try sample("IMG_0712.MOV", to: "dump/children/mina/IMG_0712.MOV")
        let pair = try run("dump", ["--move"])
        let still = try destination(pair, "IMG_0712.HEIC")
        // Same name, taken the same second, other bytes, no identifier: it would pair by name.
        try folder.write(LivePhotoImportTests.movie(created: "2024-06-14T17:42:08+0900", mediaBytes: 30_000),
                         to: "dump/children/mina/IMG_0712.MOV")
        let other = try destination(try run("dump"), "IMG_0712.MOV")
        #expect(other.contains("/children/mina/videos/2024/2024-06-14_174208_"), "\(other)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: stem(still) + ".mov"))
            == Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/children/mina/IMG_0712.MOV")))
        #expect(folder.files(under: "Library/children/mina/photos").filter { $0.hasSuffix(".mov") }.count == 1)
    }

    @Test("A movie named alone on the command line is a video of its own, though its still lies beside it untaken")
    func stillNotInTheRun() throws {
        try sample("IMG_0712.HEIC", to: "dump/children/mina/IMG_0712.HEIC")
        try sample("IMG_0712.MOV", to: "dump/children/mina/IMG_0712.MOV")
        let result = try DossierBinary.run(["import", "dump/children/mina/IMG_0712.MOV", "--library", "Library", "--json",
                                            "--subject", "children/mina", "--create"], in: folder.url)
        #expect(try destination(result, "IMG_0712.MOV").contains("/children/mina/videos/2024/"))
    }
}
