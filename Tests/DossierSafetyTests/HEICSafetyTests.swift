import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// HEIC photos and their renditions, attacked: cut-off files, lying headers, a rendition's name
/// already taken. Nothing partial may show and no source may go unfiled.
@Suite("HEIC photos cannot lose or half-write anything", SharedCorpora.required)
struct HEICSafetyTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    static func corpus(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: SharedCorpora.url(path)))
    }

    /// Every file in the library's subject folders and staging.
    func libraryFiles() -> [String] {
        ["Library/pets", "Library/.dossier/staging"].flatMap { folder.files(under: $0) }
    }

    @Test("A HEIC cut short fails with libheif's reason, stays where it was under --move, and leaves nothing filed or staged", arguments: [
        4_096, 200_000, 880_000,
    ])
    func truncatedHEIC(length: Int) throws {
        let whole = try HEICSafetyTests.corpus("heif/immich-test-assets/formats/heic/IMG_2682.heic")
        let cut = Array(whole.prefix(length))
        try folder.write(cut, to: "dump/pets/leo/IMG_2682.HEIC")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        #expect(result.status == 1, "\(result.standardOutput)")
        let outcome = try #require(result.outcomes.first)
        #expect(outcome["status"] as? String == "failed")
        let error = try #require(outcome["error"] as? String)
        #expect(error.hasPrefix(folder.path("dump/pets/leo/IMG_2682.HEIC") + ": HEIF data is corrupt or unsupported: "), "\(error)")
        #expect(SafetyFixtures.contents(folder.path("dump/pets/leo/IMG_2682.HEIC")) == cut)
        #expect(libraryFiles().isEmpty, "\(libraryFiles())")
    }

    @Test("A HEIC whose header claims 60000x60000 pixels is refused before any pixel memory is taken")
    func lyingSize() throws {
        var bytes = try HEICSafetyTests.corpus("heif/libheif-examples/fuzzing/data/corpus/colors-no-alpha.heic")
        // The one 'ispe' property: 64x64 becomes 60000x60000.
        let ispe = Array("ispe".utf8)
        let at = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == ispe })
        let size: [UInt8] = [0, 0, 0xEA, 0x60]
        bytes.replaceSubrange(at + 8..<at + 12, with: size)
        bytes.replaceSubrange(at + 12..<at + 16, with: size)
        try folder.write(bytes, to: "dump/pets/leo/huge.heic")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        let error = try #require(result.outcomes.first?["error"] as? String)
        #expect(error.contains("60000x60000, too large to decode"), "\(error)")
        #expect(libraryFiles().isEmpty)
    }

    @Test("A file already at a rendition's name is never overwritten: the HEIC and its rendition take the next name together")
    func renditionNameTaken() throws {
        let heic = try HEICSafetyTests.corpus("heif/nokia-conformance/C034.heic")
        try folder.write(heic, to: "dump/pets/leo/C034.heic")
        let dryRun = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--dry-run"], in: folder.url)
        let planned = try #require(dryRun.outcomes.first?["destination"] as? String)
        let squatter = String(planned.dropLast(4)) + "jpg"
        try FileManager.default.createDirectory(atPath: (squatter as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data("not a rendition".utf8).write(to: URL(fileURLWithPath: squatter))

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let destination = try #require(result.outcomes.first?["destination"] as? String)
        #expect(destination == String(planned.dropLast(5)) + "-2.heic")
        #expect(result.outcomes.first?["rendition"] as? String == String(planned.dropLast(5)) + "-2.jpg")
        #expect(String(decoding: SafetyFixtures.contents(squatter) ?? [], as: UTF8.self) == "not a rendition")
        #expect(SafetyFixtures.contents(destination) == heic)
    }

    @Test("A Live Photo movie's move stopped after its new name was linked loses nothing, and the still's next import finishes it")
    func reunionStoppedAfterTheLink() throws {
        try folder.write(try HEICSafetyTests.corpus("heif/immich-test-assets/formats/heic/IMG_2682.heic"), to: "held.heic")
        var movie = TestMovie()
        movie.quickTimeMetadata = [("com.apple.quicktime.creationdate", "2019-03-21T11:04:22+0100")]
        try folder.write(movie.bytes, to: "dump/pets/leo/IMG_2682.MOV")
        let first = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        let alone = try #require(first.outcomes.first?["destination"] as? String)
        try FileManager.default.moveItem(atPath: folder.path("held.heic"), toPath: folder.path("dump/pets/leo/IMG_2682.HEIC"))
        // Where the HEIC will be filed, then the state a kill after the link leaves: the movie under
        // both names (one inode), the index still naming the old one, the HEIC not filed yet.
        let planned = try DossierBinary.run(["import", "--create", "dump/pets/leo/IMG_2682.HEIC", "--library", "Library", "--json",
                                             "--dry-run"], in: folder.url)
        let heic = try #require(planned.outcomes.first?["destination"] as? String)
        let beside = String(heic.dropLast(4)) + "mov"
        try FileManager.default.createDirectory(atPath: (beside as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: alone, toPath: beside)

        let second = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(SafetyFixtures.contents(beside) == movie.bytes)
        #expect(!FileManager.default.fileExists(atPath: alone))
        #expect(folder.files(under: "dump").isEmpty, "both sources filed and checked, so both removed")
        // The index names the movie where it now lies: its bytes imported again are a duplicate of it.
        try folder.write(movie.bytes, to: "again/IMG_2682.MOV")
        let again = try DossierBinary.run(["import", "again", "--subject", "pets/leo", "--library", "Library", "--json"],
                                          in: folder.url)
        #expect(again.outcomes.first?["status"] as? String == "duplicate")
        #expect(again.outcomes.first?["destination"] as? String == beside)
    }
}
