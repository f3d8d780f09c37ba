import DossierCore
import DossierPhotos
import DossierTestSupport
import Foundation
import Testing

/// A HEIC's rendition is trusted by its bytes, not by its name: indexed when it is filed, checked
/// by `dossier verify` like any filed file, and made again from its photo when it is damaged or
/// gone. The HEIC comes from the public corpora (`../shared/corpora/heif`; `SharedCorpora` says
/// where to get them when they are absent).
@Suite("A rendition is checked by its bytes and made again from its photo", SharedCorpora.required)
struct RenditionVerifySafetyTests {
    let folder: TemporaryFolder
    /// Nokia's MIAF007: `clap`, `irot 90` and `imir`, displayed as a 360x640 portrait.
    static let turnedHEIC = "heif/nokia-conformance/MIAF007.heic"

    init() throws {
        folder = try TemporaryFolder()
        try folder.write(Array(try Data(contentsOf: SharedCorpora.url(RenditionVerifySafetyTests.turnedHEIC))),
                         to: "dump/pets/leo/MIAF007.heic")
    }

    /// The HEIC imported: its path and its rendition's, relative to the library, and the
    /// rendition's bytes as they were filed.
    func imported(_ extra: [String] = []) throws -> (photo: String, rendition: String, bytes: [UInt8]) {
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"] + extra, in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let library = folder.path("Library") + "/"
        let outcome = try #require(result.outcomes.first)
        let photo = String(try #require(outcome["destination"] as? String).dropFirst(library.count))
        let rendition = String(photo.dropLast("heic".count)) + "jpg"
        return (photo, rendition, SafetyFixtures.contents(folder.path("Library/\(rendition)")) ?? [])
    }

    func verify(_ extra: [String] = []) throws -> DossierBinary.Result {
        try DossierBinary.run(["verify", "--library", "Library"] + extra, in: folder.url)
    }

    func lines(_ result: DossierBinary.Result) -> [String] {
        result.standardOutput.split(separator: "\n").map(String.init)
    }

    func madeAgainReason(of photo: String) -> String {
        "a rendition of \(photo): `dossier verify --repair`, or the next import of its source, makes it again from the photo"
    }

    @Test("A clean library's rendition is checked with its photo, and nothing is passed over by its name")
    func aCleanRenditionIsChecked() throws {
        let filed = try imported()
        #expect(filed.bytes.count > 0)
        let result = try verify()
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(lines(result).count == 1)
        #expect(lines(result).first?.hasPrefix("Checked 2 files (") == true, "\(result.standardOutput)")
        #expect(lines(result).first?.hasSuffix(": all is well.") == true, "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("passed over"))
        let json = try verify(["--json"])
        let summary = try #require(json.summary)
        #expect(summary["checkedFiles"] as? Int == 2)
        #expect(summary["renditions"] == nil)
    }

    @Test("A rendition verify found damaged is made again from its photo by the next import of anything, and verify then finds all well")
    func theNextImportMakesANotedRenditionAgain() throws {
        let filed = try imported()
        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(filed.rendition)"))
        let noted = try verify()
        #expect(noted.status == 1)
        #expect(noted.standardError.contains("dossier: 1 damaged or missing photo has a good copy"), "\(noted.standardError)")

        try folder.write("", to: "empty/.keep")
        let next = try DossierBinary.run(["import", "empty", "--library", "Library"], in: folder.url)
        #expect(next.status == 0, "\(next.standardOutput)\(next.standardError)")
        #expect(SafetyFixtures.contents(folder.path("Library/\(filed.rendition)")) == filed.bytes)
        let after = try verify()
        #expect(after.status == 0, "\(after.standardOutput)\(after.standardError)")
        #expect(!after.standardError.contains("good copy"), "\(after.standardError)")
    }

    @Test("verify names a rendition whose bytes were flipped as damaged, says which photo it is made again from, and exits 1")
    func aFlippedRenditionIsDamaged() throws {
        let filed = try imported()
        let path = folder.path("Library/\(filed.rendition)")
        try VerifySafetyTests.flipBytes(in: path)
        let damagedHex = try VerifySafetyTests.hex(of: path)

        let result = try verify()
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        #expect(lines(result) == [
            "damaged    \(filed.rendition): its bytes hash to \(damagedHex.prefix(16)); "
                + "\(ContentDigest(of: filed.bytes).hex.prefix(16)) were put there; \(madeAgainReason(of: filed.photo))",
            lines(result).last ?? "",
        ])
        #expect(lines(result).last?.hasSuffix(": 1 damaged.") == true, "\(result.standardOutput)")
        let json = try verify(["--json"])
        #expect(json.jsonLines.first?["goodCopy"] as? String == folder.path("Library/\(filed.photo)"))
    }

    @Test("verify --quick names a rendition cut short as damaged")
    func aCutRenditionIsDamagedQuickly() throws {
        let filed = try imported()
        try Data(filed.bytes.dropLast(10)).write(to: URL(fileURLWithPath: folder.path("Library/\(filed.rendition)")))

        let result = try verify(["--quick"])
        #expect(result.status == 1)
        #expect(lines(result).first == "damaged    \(filed.rendition): it holds \(filed.bytes.count - 10) bytes; "
            + "\(filed.bytes.count) were put there; \(madeAgainReason(of: filed.photo))")
    }

    @Test("verify names a deleted rendition as missing, and exits 1")
    func aDeletedRenditionIsMissing() throws {
        let filed = try imported()
        try FileManager.default.removeItem(atPath: folder.path("Library/\(filed.rendition)"))

        let result = try verify()
        #expect(result.status == 1)
        #expect(lines(result).count == 2, "\(result.standardOutput)")
        #expect(lines(result).first == "missing    \(filed.rendition): the index says it is here; nothing is; \(madeAgainReason(of: filed.photo))")
        #expect(lines(result).last?.hasSuffix(": 1 missing.") == true)
    }

    @Test("verify --repair makes a damaged rendition again from its photo, upright, keeps the damaged bytes under damaged/, and then finds all well")
    func repairMakesADamagedRenditionAgain() throws {
        let filed = try imported()
        let path = folder.path("Library/\(filed.rendition)")
        let photoBytes = SafetyFixtures.contents(folder.path("Library/\(filed.photo)"))
        try VerifySafetyTests.flipBytes(in: path)
        let damaged = try #require(SafetyFixtures.contents(path))

        let repaired = try verify(["--repair"])
        #expect(repaired.status == 0, "\(repaired.standardOutput)\(repaired.standardError)")
        #expect(repaired.standardOutput.hasSuffix(": all is well.\n"), "\(repaired.standardOutput)")
        let remade = try #require(SafetyFixtures.contents(path))
        #expect(remade == filed.bytes)
        let decoded = try JPEGCodec.decodeRGB(remade)
        #expect((decoded.width, decoded.height) == (360, 640))
        #expect(SafetyFixtures.contents(folder.path("Library/damaged/\(VerifySafetyTests.today())/\(filed.rendition)")) == damaged)
        // The photo it was made from is as it was, and nothing else was filed.
        #expect(SafetyFixtures.contents(folder.path("Library/\(filed.photo)")) == photoBytes)
        #expect(folder.files(under: "Library/pets").sorted() == [filed.photo, filed.rendition].map { String($0.dropFirst("pets/".count)) }.sorted())
        // Indexed with the bytes made again: a second check is clean, a second repair has nothing to do.
        #expect(try verify().status == 0)
    }

    @Test("verify --repair makes a deleted rendition again from its photo, and then finds all well")
    func repairMakesAMissingRenditionAgain() throws {
        let filed = try imported()
        let path = folder.path("Library/\(filed.rendition)")
        try FileManager.default.removeItem(atPath: path)

        let repaired = try verify(["--repair", "--json"])
        #expect(repaired.status == 0, "\(repaired.standardOutput)\(repaired.standardError)")
        #expect(repaired.summary?["ok"] as? Bool == true)
        #expect(SafetyFixtures.contents(path) == filed.bytes)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/damaged")))
        // Damaged again later, it is found and made again again: the repair left no source row that
        // would call the filed photo its own good copy, nor skip it as unchanged.
        try VerifySafetyTests.flipBytes(in: path)
        #expect(try verify().status == 1)
        #expect(try verify(["--repair"]).status == 0)
        #expect(SafetyFixtures.contents(path) == filed.bytes)
    }

    @Test("Importing the source again makes a damaged or missing rendition again; a dry run writes nothing", arguments: [true, false])
    func reimportMakesTheRenditionAgain(deleted: Bool) throws {
        let filed = try imported()
        let path = folder.path("Library/\(filed.rendition)")
        if deleted {
            try FileManager.default.removeItem(atPath: path)
        } else {
            try VerifySafetyTests.flipBytes(in: path)
        }
        let before = SafetyFixtures.contents(path)

        let dryRun = try DossierBinary.run(["import", "dump", "--library", "Library", "--json", "--dry-run"], in: folder.url)
        #expect(dryRun.status == 0, "\(dryRun.standardOutput)\(dryRun.standardError)")
        #expect(SafetyFixtures.contents(path) == before)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/damaged")))

        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let outcome = try #require(result.outcomes.first)
        #expect(outcome["status"] as? String == "imported")
        #expect(outcome["refiled"] as? Bool == true)
        let aside = folder.path("Library/damaged/\(VerifySafetyTests.today())/\(filed.rendition)")
        #expect(outcome["warnings"] as? [String] == (deleted
            ? ["the rendition \(path) of the filed copy \(folder.path("Library/\(filed.photo)")) was missing; made again from this source"]
            : ["the rendition \(path) of the filed copy \(folder.path("Library/\(filed.photo)")) was damaged (its bytes are not the ones "
                + "filed); made again from this source",
               "the damaged copy that stood at its name is kept at \(aside)"]))
        #expect(SafetyFixtures.contents(path) == filed.bytes)
        #expect(SafetyFixtures.contents(aside) == (deleted ? nil : before))
        #expect(try verify().status == 0)
        // Whole again, the source is a duplicate.
        let again = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(again.outcomes.first?["status"] as? String == "duplicate")
    }

    @Test("A .jpg with a rendition's name that Dossier did not file is unindexed, not passed over by its name")
    func aStrayWithARenditionsNameIsUnindexed() throws {
        let filed = try imported(["--renditions", "none"])
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/\(filed.rendition)")))
        try folder.write(SafetyFixtures.jpeg(seed: 4), to: "Library/\(filed.rendition)")

        let result = try verify()
        #expect(result.status == 1, "\(result.standardOutput)")
        #expect(lines(result).count == 2, "\(result.standardOutput)")
        #expect(lines(result).first == "unindexed  \(filed.rendition): the index does not know it: it has the name of a rendition of "
            + "\(filed.photo), but Dossier did not file it")
        #expect(lines(result).last?.hasSuffix(": 1 unindexed.") == true, "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("passed over"))
    }

    @Test("index rebuild indexes a rendition beside its photo as it is; verify then finds all well, and a flipped byte in it after")
    func rebuildIndexesRenditions() throws {
        let filed = try imported()
        try FileManager.default.removeItem(atPath: folder.path("Library/.dossier/index.sqlite"))

        let rebuilt = try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url)
        #expect(rebuilt.status == 0, "\(rebuilt.standardOutput)\(rebuilt.standardError)")
        #expect(rebuilt.standardOutput.contains("Indexed 1 photo"), "\(rebuilt.standardOutput)")
        let clean = try verify()
        #expect(clean.status == 0, "\(clean.standardOutput)")
        #expect(lines(clean).first?.hasPrefix("Checked 2 files (") == true, "\(clean.standardOutput)")

        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(filed.rendition)"))
        let result = try verify()
        #expect(result.status == 1)
        #expect(lines(result).first?.hasPrefix("damaged    \(filed.rendition): its bytes hash to ") == true, "\(result.standardOutput)")
    }
}
