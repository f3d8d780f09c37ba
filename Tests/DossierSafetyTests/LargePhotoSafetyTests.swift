import DossierCore
import DossierPhotos
import Foundation
import DossierTestSupport
import Testing

/// A photo too large to hold in memory goes through scratch files in the library's staging
/// folder: it must come out as safe as any other (its source removed only once the filed copy
/// checks), leave nothing behind, and survive a kill at any moment.
@Suite("Large photos are filed as safely as any other", .serialized)
struct LargePhotoSafetyTests {
    static let photo = SafetyFixtures.largeJPEG()

    func stagingIsEmpty(_ folder: TemporaryFolder) throws -> Bool {
        try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier/staging")).isEmpty
    }

    @Test("Moved in, a large photo is filed upright and whole, its source removed, staging left empty")
    func movedInWhole() throws {
        let folder = try TemporaryFolder()
        try folder.write(LargePhotoSafetyTests.photo, to: "dump/pets/leo/IMG_0001.jpg")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let destination = try #require(result.outcomes.first?["destination"] as? String)
        let filed = try #require(SafetyFixtures.contents(destination))
        let info = try JPEGCodec.info(filed)
        #expect((info.width, info.height) == (6000, 8016))
        #expect(!FileManager.default.fileExists(atPath: folder.path("dump/pets/leo/IMG_0001.jpg")))
        #expect(try stagingIsEmpty(folder))
        // Imported again from a copy of the source, it is recognised as the one already filed.
        try folder.write(LargePhotoSafetyTests.photo, to: "again/pets/leo/IMG_0001.jpg")
        let again = try DossierBinary.run(["import", "--create", "again", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(again.outcomes.first?["status"] as? String == "duplicate", "\(again.standardOutput)")
        #expect(SafetyFixtures.contents(destination) == filed)
    }

    @Test("Killed while it works on a large photo, the next run files it exactly once and clears staging",
          arguments: [0.2, 0.6, 1.2])
    func killedAndRunAgain(after seconds: Double) throws {
        let folder = try TemporaryFolder()
        try folder.write(LargePhotoSafetyTests.photo, to: "dump/pets/leo/IMG_0002.jpg")
        let process = DossierBinary.process(["import", "--create", "dump", "--library", "Library", "--move"], in: folder.url)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(UInt32(seconds * 1_000_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        #expect(try stagingIsEmpty(folder))
        let photos = try FileManager.default.subpathsOfDirectory(atPath: folder.path("Library/pets/leo/photos"))
            .filter { $0.hasSuffix(".jpg") }
        #expect(photos.count == 1, "\(photos)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("dump/pets/leo/IMG_0002.jpg")))
    }
}
