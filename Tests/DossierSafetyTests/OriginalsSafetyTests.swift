import DossierCore
import Foundation
import DossierTestSupport
import Testing

/// `--originals`: the camera's own bytes kept under `originals/` where the filed photo is not
/// them, and durable before the source goes.
@Suite("The camera's bytes are kept where the filed photo is not them")
struct OriginalsSafetyTests {
    /// A sideways JPEG 70x50: its edges are not whole MCUs, so turning it decodes and encodes
    /// its pixels again.
    static let unaligned = SafetyFixtures.jpeg(width: 70, height: 50, orientation: 6, seed: 11)
    /// A sideways JPEG 64x48: whole MCUs, turned losslessly.
    static let aligned = SafetyFixtures.jpeg(width: 64, height: 48, orientation: 6, seed: 12)

    static func hex(_ bytes: [UInt8]) -> String { ContentDigest(of: bytes).hex }

    /// Every file under `originals/`, with its digest.
    static func originals(in folder: TemporaryFolder) -> [String: String] {
        var kept: [String: String] = [:]
        for path in folder.files(under: "Library/originals") {
            kept[path] = hex(SafetyFixtures.contents(folder.path("Library/originals/\(path)")) ?? [])
        }
        return kept
    }

    @Test("A sideways JPEG whose edges are not whole MCUs keeps its camera bytes under originals/; an aligned one does not")
    func lossyTurnsKeepTheirOriginals() throws {
        let folder = try TemporaryFolder()
        try folder.write(OriginalsSafetyTests.unaligned, to: "dump/pets/leo/IMG_0101.JPG")
        try folder.write(OriginalsSafetyTests.aligned, to: "dump/pets/leo/IMG_0102.JPG")

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let byName = Dictionary(uniqueKeysWithValues: result.outcomes.map { outcome in
            (((outcome["source"] as? String ?? "") as NSString).lastPathComponent, outcome)
        })
        let reencoded = try #require(byName["IMG_0101.JPG"])
        let destination = try #require(reencoded["destination"] as? String)
        // Named after the filed photo, so a person finds one from the other.
        let filedRelative = String(destination.dropFirst(folder.path("Library").count + 1))
        #expect(reencoded["original"] as? String == folder.path("Library/originals/\(filedRelative)"))
        #expect(OriginalsSafetyTests.originals(in: folder) == [filedRelative: OriginalsSafetyTests.hex(OriginalsSafetyTests.unaligned)])
        // The filed photo is not the camera's bytes; the original is, byte for byte.
        #expect(SafetyFixtures.contents(destination) != OriginalsSafetyTests.unaligned)
        #expect(byName["IMG_0102.JPG"]?["original"] == nil)

        let verified = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(verified.status == 0, "\(verified.standardOutput)")
        #expect(verified.standardOutput.hasPrefix("Checked 3 files ("))
    }

    @Test("--originals all keeps every photo's original, once per content; none keeps none")
    func allAndNone() throws {
        let folder = try TemporaryFolder()
        try folder.write(OriginalsSafetyTests.aligned, to: "dump/pets/leo/IMG_0102.JPG")
        try folder.write(OriginalsSafetyTests.aligned, to: "dump/pets/leo/copy of IMG_0102.JPG")
        try folder.write(OriginalsSafetyTests.unaligned, to: "other/pets/leo/IMG_0101.JPG")

        let none = try DossierBinary.run(["import", "--create", "other", "--library", "Library", "--originals", "none"], in: folder.url)
        #expect(none.status == 0, "\(none.standardError)")
        #expect(OriginalsSafetyTests.originals(in: folder).isEmpty)

        let all = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--originals", "all", "--jobs", "1"],
                                        in: folder.url)
        #expect(all.status == 0, "\(all.standardError)")
        #expect(Array(OriginalsSafetyTests.originals(in: folder).values) == [OriginalsSafetyTests.hex(OriginalsSafetyTests.aligned)])
    }

    @Test("The library's originals setting is the default, and a bad one is refused by name")
    func librarySetting() throws {
        let folder = try TemporaryFolder()
        #expect(try DossierBinary.run(["init", "Library"], in: folder.url).status == 0)
        let settings = folder.path("Library/config/library.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: settings))) as? [String: Any])
        object["originals"] = "all"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: settings))
        try folder.write(OriginalsSafetyTests.aligned, to: "dump/pets/leo/IMG_0102.JPG")

        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--create"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(OriginalsSafetyTests.originals(in: folder).count == 1)

        object["originals"] = "some"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: settings))
        try folder.write(OriginalsSafetyTests.unaligned, to: "dump/pets/leo/IMG_0101.JPG")
        let refused = try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
        #expect(refused.status == 2)
        #expect(refused.standardError == "dossier: \(settings): \"originals\" must be \"lossy\", \"all\" or \"none\"\n")
    }

    @Test("--move removes a re-encoded photo's source only once its original is durable in the library; if it cannot be kept, the source stays")
    func moveWaitsForTheOriginal() throws {
        let folder = try TemporaryFolder()
        let source = try folder.write(OriginalsSafetyTests.unaligned, to: "dump/pets/leo/IMG_0101.JPG")
        #expect(try DossierBinary.run(["init", "Library"], in: folder.url).status == 0)
        // `originals` is a link out of the library: nothing is written through it.
        try FileManager.default.createDirectory(atPath: folder.path("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("Library/originals"), withDestinationPath: folder.path("elsewhere"))

        let refused = try DossierBinary.run(["import", "dump", "--library", "Library", "--move", "--create", "--json"], in: folder.url)
        #expect(refused.status != 0, "\(refused.standardOutput)")
        #expect(SafetyFixtures.contents(source) == OriginalsSafetyTests.unaligned)
        #expect(folder.files(under: "elsewhere").isEmpty)

        try FileManager.default.removeItem(atPath: folder.path("Library/originals"))
        let moved = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(moved.status == 0, "\(moved.standardOutput)\(moved.standardError)")
        let outcome = try #require(moved.outcomes.first)
        #expect(outcome["sourceRemoved"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: source))
        let original = try #require(outcome["original"] as? String)
        #expect(SafetyFixtures.contents(original) == OriginalsSafetyTests.unaligned)
    }

    /// The unaligned sideways JPEG imported with --move: where it was filed, and its original.
    static func movedWithItsOriginal(in folder: TemporaryFolder) throws -> (destination: String, original: String) {
        try folder.write(OriginalsSafetyTests.unaligned, to: "dump/pets/leo/IMG_0101.JPG")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        return (try #require(result.outcomes.first?["destination"] as? String), try #require(result.outcomes.first?["original"] as? String))
    }

    @Test("verify checks each original, and says a damaged photo has a good copy of its source in originals/")
    func verifyNamesTheOriginal() throws {
        let folder = try TemporaryFolder()
        let (destination, original) = try OriginalsSafetyTests.movedWithItsOriginal(in: folder)
        let filed = String(destination.dropFirst(folder.path("Library").count + 1))
        let kept = String(original.dropFirst(folder.path("Library").count + 1))
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: destination))

        let verified = try DossierBinary.run(["verify", "--library", "Library", "--json"], in: folder.url)
        #expect(verified.status == 1)
        let finding = try #require(verified.jsonLines.first)
        #expect(finding["path"] as? String == filed)
        #expect(finding["kind"] as? String == "damaged")
        #expect(finding["goodCopy"] as? String == original)
        #expect((finding["reason"] as? String)?.hasSuffix("; a good copy of its source is kept at \(kept): "
            + "`dossier verify --repair` files it anew") == true)

        // The source is gone (--move): --repair files the photo again from its original, under its name.
        let good = try #require(SafetyFixtures.contents(original))
        let repaired = try DossierBinary.run(["verify", "--repair", "--library", "Library"], in: folder.url)
        #expect(repaired.status == 0, "\(repaired.standardOutput)\(repaired.standardError)")
        #expect(repaired.standardOutput.contains("imported \(original) -> \(destination) (filed again: the library's copy was "
            + "damaged or missing)"), "\(repaired.standardOutput)")
        #expect(repaired.standardOutput.hasSuffix(": all is well.\n"), "\(repaired.standardOutput)")
        #expect(SafetyFixtures.contents(original) == good)
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)

        // A damaged original is named too.
        try Data([0x00]).write(to: URL(fileURLWithPath: original))
        let both = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(both.standardOutput.contains("damaged    \(kept): its bytes hash to "), "\(both.standardOutput)")
    }

    @Test("After --move, the next import files a damaged photo again from its original, which stays where it is")
    func theNextImportFilesAgainFromTheOriginal() throws {
        let folder = try TemporaryFolder()
        let (destination, original) = try OriginalsSafetyTests.movedWithItsOriginal(in: folder)
        let filedBytes = try #require(SafetyFixtures.contents(destination))
        let originalBytes = try #require(SafetyFixtures.contents(original))
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: destination))
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 1)

        try folder.write("", to: "empty/.keep")
        let next = try DossierBinary.run(["import", "empty", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(next.status == 0, "\(next.standardOutput)\(next.standardError)")
        let refiled = try #require(next.outcomes.first)
        #expect(refiled["source"] as? String == original)
        #expect(refiled["destination"] as? String == destination)
        #expect(refiled["status"] as? String == "imported", "\(refiled)")
        #expect(refiled["refiled"] as? Bool == true, "\(refiled)")
        // Turned again from the camera's bytes: the very bytes first filed; the original untouched.
        #expect(SafetyFixtures.contents(destination) == filedBytes)
        #expect(SafetyFixtures.contents(original) == originalBytes)
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
    }

    @Test("--move of a duplicate whose original was deleted keeps it again from the source before the source goes")
    func aLostOriginalIsKeptAgainBeforeTheSourceGoes() throws {
        let folder = try TemporaryFolder()
        let source = try folder.write(OriginalsSafetyTests.unaligned, to: "dump/pets/leo/IMG_0101.JPG")
        let first = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        let original = try #require(first.outcomes.first?["original"] as? String)
        try FileManager.default.removeItem(atPath: original)

        let moved = try DossierBinary.run(["import", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(moved.status == 0, "\(moved.standardOutput)\(moved.standardError)")
        let outcome = try #require(moved.outcomes.first)
        #expect(outcome["status"] as? String == "duplicate")
        #expect(outcome["warnings"] as? [String] == ["its original \(original) was damaged or missing; kept again from this source"])
        #expect(outcome["sourceRemoved"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: source))
        #expect(SafetyFixtures.contents(original) == OriginalsSafetyTests.unaligned)
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
    }

    @Test("The same photo for two subjects in one import keeps an original for each, both indexed; index rebuild finds them again")
    func originalsForTwoSubjectsAndARebuild() throws {
        let folder = try TemporaryFolder()
        try folder.write(OriginalsSafetyTests.unaligned, to: "dump/pets/leo/photo-7.jpg")
        try folder.write(OriginalsSafetyTests.unaligned, to: "dump/pets/coco/photo-7.jpg")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--jobs", "2"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let verified = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(verified.status == 0, "\(verified.standardOutput)")

        let rebuilt = try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url)
        #expect(rebuilt.status == 0, "\(rebuilt.standardError)")
        let again = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(again.status == 0, "\(again.standardOutput)")
        // One for each subject's filed photo, both holding the camera's bytes.
        #expect(Set(OriginalsSafetyTests.originals(in: folder).values) == [OriginalsSafetyTests.hex(OriginalsSafetyTests.unaligned)])
        #expect(OriginalsSafetyTests.originals(in: folder).count == 2)
    }
}
