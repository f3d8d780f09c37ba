import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// Movies in a phone dump, through the `dossier` binary.
@Suite("dossier import of videos")
struct VideoImportTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    func outcome(_ result: DossierBinary.Result, _ name: String) throws -> [String: Any] {
        try #require(result.outcomes.first { ($0["source"] as? String)?.hasSuffix("/\(name)") ?? false })
    }

    @Test("Videos are filed byte for byte under videos/<YYYY>/, dated by each of their three sources, their turn in --json")
    func filesVideos() throws {
        var iPhone = TestMovie()
        iPhone.rotation = 90
        iPhone.movieHeaderCreation = TestMovie.quickTimeSeconds(Date(timeIntervalSince1970: 1_705_124_333))
        iPhone.quickTimeMetadata = [("com.apple.quicktime.creationdate", "2024-01-12T21:38:53-0800")]
        var android = TestMovie()
        android.majorBrand = "mp42"
        android.compatibleBrands = ["isom", "mp42"]
        android.mediaBytes = 31_337
        android.movieHeaderCreation = TestMovie.quickTimeSeconds(Date(timeIntervalSince1970: 1_688_486_531))  // 2023-07-04 16:02:11 UTC
        var camera = TestMovie()
        camera.majorBrand = "3gp4"
        camera.compatibleBrands = ["3gp4", "isom"]
        camera.mediaBytes = 12_345
        camera.rotation = 180
        let movies = ["IMG_0042.MOV": iPhone.bytes, "VID_20230704_180211.mp4": android.bytes, "MOV00017.3GP": camera.bytes]
        for (name, movie) in movies { try folder.write(movie, to: "dump/pets/leo/\(name)") }
        // The third has no date of its own: its mtime, 2022-05-06 07:08:09 UTC, dates it.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_651_820_889)],
                                              ofItemAtPath: folder.path("dump/pets/leo/MOV00017.3GP"))

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url,
                                           environment: ["TZ": "UTC"])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = [("IMG_0042.MOV", "videos/2024/2024-01-12_213853_", "mov", 90),
                        ("VID_20230704_180211.mp4", "videos/2023/2023-07-04_160211_", "mp4", 0),
                        ("MOV00017.3GP", "videos/2022/2022-05-06_070809_", "3gp", 180)]
        for (name, prefix, ext, rotation) in expected {
            let filed = try outcome(result, name)
            #expect(filed["status"] as? String == "imported", "\(name): \(filed)")
            let destination = try #require(filed["destination"] as? String)
            let digest = ContentDigest(of: movies[name]!).hex
            #expect(destination == folder.path("Library/pets/leo/\(prefix)\(digest.prefix(8)).\(ext)"), "\(name)")
            #expect(try bytes(destination) == movies[name]!, "\(name)")
            #expect(filed["rotation"] as? Int == rotation, "\(name)")
        }

        let again = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        #expect(again.outcomes.allSatisfy { $0["status"] as? String == "duplicate" && $0["sourceRemoved"] as? Bool == true })
    }

    @Test("A truncated movie fails naming the file and the reason, is left where it was under --move, and nothing is filed")
    func truncatedMovie() throws {
        var movie = TestMovie()
        movie.quickTimeMetadata = [("com.apple.quicktime.creationdate", "2024-01-12T21:38:53-0800")]
        let whole = movie.bytes
        // Cut inside moov: the recording's index is incomplete.
        let cut = Array(whole.prefix(300))
        try folder.write(cut, to: "dump/pets/leo/IMG_0043.MOV")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        #expect(result.status == 1)
        let failed = try outcome(result, "IMG_0043.MOV")
        #expect(failed["status"] as? String == "failed")
        let error = try #require(failed["error"] as? String)
        #expect(error.hasPrefix(folder.path("dump/pets/leo/IMG_0043.MOV") + ": "))
        #expect(error.contains("the movie cannot be read: the file ends inside a box"), "\(error)")
        #expect(try bytes(folder.path("dump/pets/leo/IMG_0043.MOV")) == cut)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/leo/videos")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier/staging")).isEmpty)
    }
}
