import DossierCore
import Foundation
import Glibc
import DossierTestSupport
import Testing

/// `dossier verify`, and damage inside the library: found, named, and filed again from a good
/// copy, the damaged bytes kept.
@Suite("Damage inside the library is found and mended")
struct VerifySafetyTests {
    /// Three sideways photos and a notepad log under `dump/pets/leo`, imported into `Library`:
    /// the filed photos' paths below the library, in name order, and the source of each.
    static func importedLibrary(in folder: TemporaryFolder) throws -> [String] {
        try importedLibraryWithSources(in: folder).map(\.filed)
    }

    static func importedLibraryWithSources(in folder: TemporaryFolder) throws -> [(filed: String, source: String)] {
        for seed in 1...3 {
            try folder.write(SafetyFixtures.jpeg(seed: seed), to: "dump/pets/leo/IMG_000\(seed).JPG")
        }
        try folder.write("""
            2024-03-02 crickets x5, ate all
            2024-03-03 weight 45g
            2024-03-09 shed in one piece, humidity up
            2024-04-11 vet: mites gone

            """, to: "dump/pets/leo/notes.txt")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let library = folder.path("Library") + "/"
        return result.outcomes.compactMap { outcome -> (filed: String, source: String)? in
            guard let destination = outcome["destination"] as? String, destination.contains("/photos/"),
                  let source = outcome["source"] as? String else { return nil }
            return (String(destination.dropFirst(library.count)), source)
        }.sorted { $0.filed < $1.filed }
    }

    static func hex(of path: String) throws -> String {
        ContentDigest(of: try #require(SafetyFixtures.contents(path))).hex
    }

    /// Overwrites four bytes in the middle of a file, keeping its size (and its name).
    static func flipBytes(in path: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: 300)
        try handle.write(contentsOf: Data([0x00, 0x01, 0x02, 0x03]))
    }

    @Test("verify says all is well of a clean library, and exits 0")
    func aCleanLibraryIsWell() throws {
        let folder = try TemporaryFolder()
        let photos = try VerifySafetyTests.importedLibrary(in: folder)
        #expect(photos.count == 3)

        let result = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.isEmpty)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 1)
        // 3 photos, a year file, the kept log.
        #expect(lines.first?.hasPrefix("Checked 5 files (") == true, "\(result.standardOutput)")
        #expect(lines.first?.hasSuffix(": all is well.") == true, "\(result.standardOutput)")
    }

    @Test("verify names a flipped byte, a deleted file, an unindexed file and a cut year file, and exits 1")
    func allFourAreNamed() throws {
        let folder = try TemporaryFolder()
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        let photos = filed.map(\.filed)
        let flipped = photos[0], deleted = photos[1]
        let filedHex = try VerifySafetyTests.hex(of: folder.path("Library/\(flipped)"))
        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(flipped)"))
        let damagedHex = try VerifySafetyTests.hex(of: folder.path("Library/\(flipped)"))
        try FileManager.default.removeItem(atPath: folder.path("Library/\(deleted)"))
        let stray = (photos[2] as NSString).deletingLastPathComponent + "/copied-by-hand.jpg"
        try FileManager.default.copyItem(atPath: folder.path("Library/\(photos[2])"), toPath: folder.path("Library/\(stray)"))
        let yearFile = folder.path("Library/pets/leo/records/2024.jsonl")
        let records = try #require(SafetyFixtures.contents(yearFile))
        try Data(records.dropLast(7)).write(to: URL(fileURLWithPath: yearFile))

        let result = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(result.standardOutput)")
        #expect(lines.contains("damaged    \(flipped): its bytes hash to \(damagedHex.prefix(16)); "
            + "\(filedHex.prefix(16)) were put there; its source is still at \(filed[0].source): import it again, or `dossier verify --repair`, to file it anew"))
        #expect(lines.contains("missing    \(deleted): the index says it is here; nothing is; its source is still at "
            + "\(filed[1].source): `dossier verify --repair` files it again from there, or `dossier remove \(deleted)` forgets it"))
        #expect(lines.contains("unindexed  \(stray): the index does not know it"))
        #expect(lines.contains("unreadable pets/leo/records/2024.jsonl: line 4 is cut short: the file ends inside it"))
        #expect(lines.last?.hasSuffix(": 1 damaged, 1 missing, 1 unindexed, 1 unreadable.") == true, "\(result.standardOutput)")
    }

    @Test("verify --json prints one camelCase object per finding, naming the good copy, then a summary")
    func jsonFindings() throws {
        let folder = try TemporaryFolder()
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        let photos = filed.map(\.filed)
        try FileManager.default.removeItem(atPath: folder.path("Library/\(photos[0])"))

        let result = try DossierBinary.run(["verify", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 1)
        let lines = result.jsonLines
        #expect(lines.count == 2)
        let finding = try #require(lines.first)
        #expect(finding["kind"] as? String == "missing")
        #expect(finding["path"] as? String == photos[0])
        #expect(finding["goodCopy"] as? String == filed[0].source)
        let summary = try #require(result.summary)
        #expect(summary["checkedFiles"] as? Int == 5)
        #expect(summary["ok"] as? Bool == false)
        #expect(summary["found"] as? [String: Int] == ["damaged": 0, "missing": 1, "unindexed": 0, "unreadable": 0])
        #expect(summary["library"] as? String == folder.path("Library"))
    }

    @Test("A re-import files a photo again over its copy with a flipped byte, and keeps the damaged copy under damaged/")
    func aFlippedByteIsFiledAgain() throws {
        let folder = try TemporaryFolder()
        let photos = try VerifySafetyTests.importedLibrary(in: folder)
        let flipped = folder.path("Library/\(photos[0])")
        let good = try #require(SafetyFixtures.contents(flipped))
        try VerifySafetyTests.flipBytes(in: flipped)
        let damaged = try #require(SafetyFixtures.contents(flipped))

        // The sources are unchanged since their import: only the filed copy's bytes tell.
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.summary?["imported"] as? Int == 1)
        let refiled = try #require(result.outcomes.first { $0["refiled"] as? Bool == true })
        #expect(refiled["status"] as? String == "imported")
        #expect(refiled["destination"] as? String == flipped)
        let day = VerifySafetyTests.today()
        let aside = folder.path("Library/damaged/\(day)/\(photos[0])")
        #expect(refiled["warnings"] as? [String] == [
            "the filed copy \(flipped) was damaged (its bytes are not the ones filed); filed again from this source",
            "the damaged copy that stood at its name is kept at \(aside)",
        ])
        #expect(SafetyFixtures.contents(flipped) == good)
        #expect(SafetyFixtures.contents(aside) == damaged)
        // Nothing filed beside it under another name.
        #expect(folder.files(under: "Library").filter { $0.hasPrefix("pets/") && $0.contains("/photos/") }.sorted() == photos)
        let verified = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(verified.status == 0, "\(verified.standardOutput)")
    }

    @Test("index rebuild names a file whose bytes do not match its name, and the next import files it again")
    func rebuildNamesMisnamedFiles() throws {
        let folder = try TemporaryFolder()
        let photos = try VerifySafetyTests.importedLibrary(in: folder)
        let flipped = folder.path("Library/\(photos[2])")
        let good = try #require(SafetyFixtures.contents(flipped))
        try VerifySafetyTests.flipBytes(in: flipped)
        let damagedHex = try VerifySafetyTests.hex(of: flipped)
        let name = ((photos[2] as NSString).lastPathComponent as NSString).deletingPathExtension
        let namedHex = try #require(name.split(separator: "_").last.map(String.init))

        let rebuilt = try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url)
        #expect(rebuilt.status == 1, "\(rebuilt.standardOutput)\(rebuilt.standardError)")
        #expect(rebuilt.standardError.contains(
            "damaged    \(photos[2]): its bytes hash to \(damagedHex.prefix(16)); its name says \(namedHex)\n"), "\(rebuilt.standardError)")
        #expect(rebuilt.standardError.contains("1 filed file's bytes do not match its name"))

        // The index now holds the damaged bytes as filed: only the name tells.
        let verified = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(verified.status == 1)
        #expect(verified.standardOutput.contains("damaged    \(photos[2]): its bytes hash to \(damagedHex.prefix(16)); its name says \(namedHex)"))

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.outcomes.filter { $0["refiled"] as? Bool == true }.compactMap { $0["destination"] as? String } == [flipped])
        #expect(SafetyFixtures.contents(flipped) == good)
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
    }

    @Test("verify --quick finds a filed file whose size changed or that was written to after it was filed")
    func quickLooksAtSizesAndTimes() throws {
        let folder = try TemporaryFolder()
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        let photos = filed.map(\.filed)
        let clean = try DossierBinary.run(["verify", "--library", "Library", "--quick"], in: folder.url)
        #expect(clean.status == 0, "\(clean.standardOutput)")
        #expect(clean.standardOutput.contains(" by size and time of "))

        let cut = folder.path("Library/\(photos[0])")
        let bytes = try #require(SafetyFixtures.contents(cut))
        try Data(bytes.dropLast(10)).write(to: URL(fileURLWithPath: cut))
        let written = folder.path("Library/\(photos[1])")
        try VerifySafetyTests.flipBytes(in: written)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: written)

        let result = try DossierBinary.run(["verify", "--library", "Library", "--quick"], in: folder.url)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("damaged    \(photos[0]): it holds \(bytes.count - 10) bytes; \(bytes.count) were put there; "
            + "its source is still at \(filed[0].source): import it again, or `dossier verify --repair`, to file it anew"))
        #expect(lines.contains { $0.hasPrefix("damaged    \(photos[1]): it was written to at ") && $0.contains(", after it was filed at ") })
    }

    @Test("verify --quick names no source edited at the same size and time as a good copy, and says why it is none")
    func quickNamesNoChangedSourceAsAGoodCopy() throws {
        let folder = try TemporaryFolder()
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        try FileManager.default.removeItem(atPath: folder.path("Library/\(filed[0].filed)"))
        // Edited in place: the same size, and its modification time given back.
        let source = filed[0].source
        let time = try #require(try FileManager.default.attributesOfItem(atPath: source)[.modificationDate] as? Date)
        try VerifySafetyTests.flipBytes(in: source)
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: source)

        let quick = try DossierBinary.run(["verify", "--quick", "--library", "Library", "--json"], in: folder.url)
        #expect(quick.status == 1)
        let finding = try #require(quick.jsonLines.first { $0["path"] as? String == filed[0].filed })
        #expect(finding["kind"] as? String == "missing")
        #expect(finding["goodCopy"] == nil, "\(finding)")
        #expect(finding["reason"] as? String == "the index says it is here; nothing is; its source at \(source) has changed since it "
            + "was imported (its bytes are not the ones filed from it), and is no good copy; so none is at hand: "
            + "`dossier remove \(filed[0].filed)` forgets it, or `dossier verify --repair` has the next import of its source file it again")
        #expect(!quick.standardError.contains("good copy"), "\(quick.standardError)")
        let repaired = try DossierBinary.run(["verify", "--quick", "--repair", "--library", "Library"], in: folder.url)
        #expect(repaired.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/\(filed[0].filed)")), "filed from a changed source")
    }

    @Test("verify never follows a link at a filed name, nor into a linked folder, and says what stands there")
    func linksAreNamedNotFollowed() throws {
        let folder = try TemporaryFolder()
        let photos = try VerifySafetyTests.importedLibrary(in: folder)
        // A link in a photo's place to a copy of its very bytes outside: not the file that was filed.
        let linked = folder.path("Library/\(photos[0])")
        try FileManager.default.moveItem(atPath: linked, toPath: folder.path("outside.jpg"))
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: folder.path("outside.jpg"))
        // A folder of photos elsewhere linked into the subject's photos folder.
        try folder.write(SafetyFixtures.jpeg(seed: 7), to: "elsewhere/a.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder.path("Library/pets/leo/photos/elsewhere"),
                                                   withDestinationPath: folder.path("elsewhere"))

        let result = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("damaged    \(photos[0]): a link stands at its name, not the file filed there") })
        #expect(lines.contains("unindexed  pets/leo/photos/elsewhere: the index does not know it"))
        #expect(SafetyFixtures.contents(folder.path("outside.jpg")) != nil)
    }

    static func today() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    @Test("A year file deleted from the library is written again by the next import of its log")
    func aDeletedYearFileIsWrittenAgain() throws {
        let folder = try TemporaryFolder()
        _ = try VerifySafetyTests.importedLibrary(in: folder)
        let yearFile = folder.path("Library/pets/leo/records/2024.jsonl")
        let records = try #require(SafetyFixtures.contents(yearFile))
        try FileManager.default.removeItem(atPath: yearFile)

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)")
        let log = try #require(result.outcomes.first { ($0["source"] as? String)?.hasSuffix("notes.txt") == true })
        #expect((log["records"] as? [String: Int])?["added"] == 4)
        #expect(SafetyFixtures.contents(yearFile) == records)
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
    }

    @Test("A folder made at a filed photo's name fails that source alone; the import goes on and nothing is lost")
    func aFolderAtAFiledNameFailsOneSource() throws {
        let folder = try TemporaryFolder()
        let photos = try VerifySafetyTests.importedLibrary(in: folder)
        let taken = folder.path("Library/\(photos[0])")
        try FileManager.default.removeItem(atPath: taken)
        try FileManager.default.createDirectory(atPath: taken, withIntermediateDirectories: false)
        try folder.write(SafetyFixtures.jpeg(seed: 9), to: "dump/pets/leo/IMG_0009.JPG")

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        let failed = result.outcomes.filter { $0["status"] as? String == "failed" }
        #expect(failed.count == 1)
        #expect((failed.first?["error"] as? String)?.contains("a folder stands at the name this was filed under") == true, "\(failed)")
        #expect(result.summary?["imported"] as? Int == 1)
        #expect(result.outcomes.count == 5)
    }

    @Test("verify names a stray file in a subject's folder, a name that is not UTF-8, and goes on past a link where a folder belongs")
    func straysAndLinks() throws {
        let folder = try TemporaryFolder()
        let photos = try VerifySafetyTests.importedLibrary(in: folder)
        try folder.write("a note", to: "Library/pets/leo/notes.txt")
        let year = (photos[0] as NSString).deletingLastPathComponent
        #expect(SourcePath.withFileSystemPath(folder.path("Library/\(year)")) { base in
            let bytes = Array(String(cString: base).utf8) + Array("/y".utf8) + [0xE9] + Array(".jpg".utf8) + [0]
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { creat($0.baseAddress!, 0o644) }
            }
        } >= 0)
        try FileManager.default.createDirectory(atPath: folder.path("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("Library/originals"), withDestinationPath: folder.path("elsewhere"))

        let result = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("unindexed  pets/leo/notes.txt: Dossier files nothing here; the index does not know it"), "\(lines)")
        #expect(lines.contains("unindexed  \(year)/y\u{FFFD}.jpg: the index does not know it"), "\(lines)")
        #expect(lines.contains("damaged    originals: a link stands where a folder of the library belongs; nothing behind it was checked"),
                "\(lines)")
        #expect(lines.count == 4)
    }

    @Test("A kept copy of a log damaged in the library is kept again from the log by the next import, the damaged bytes under damaged/")
    func aDamagedKeptSourceIsKeptAgain() throws {
        let folder = try TemporaryFolder()
        _ = try VerifySafetyTests.importedLibrary(in: folder)
        let kept = try #require(folder.files(under: "Library/sources").first)
        let path = folder.path("Library/sources/\(kept)")
        let good = try #require(SafetyFixtures.contents(path))
        try VerifySafetyTests.flipBytes(in: folder.path("Library/sources/\(kept)"))
        let damaged = try #require(SafetyFixtures.contents(path))
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 1)

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(SafetyFixtures.contents(path) == good)
        #expect(SafetyFixtures.contents(folder.path("Library/damaged/\(VerifySafetyTests.today())/sources/\(kept)")) == damaged)
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
    }

    @Test("verify --repair files a damaged and a missing photo again from their sources, and then finds all well")
    func repairFilesAgainFromSources() throws {
        let folder = try TemporaryFolder()
        let photos = try VerifySafetyTests.importedLibrary(in: folder)
        let good = photos.map { SafetyFixtures.contents(folder.path("Library/\($0)")) }
        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(photos[0])"))
        try FileManager.default.removeItem(atPath: folder.path("Library/\(photos[1])"))

        let repaired = try DossierBinary.run(["verify", "--repair", "--library", "Library"], in: folder.url)
        #expect(repaired.status == 0, "\(repaired.standardOutput)\(repaired.standardError)")
        #expect(photos.map { SafetyFixtures.contents(folder.path("Library/\($0)")) } == good)
        #expect(repaired.standardOutput.hasSuffix(": all is well.\n"))
        // Without --repair, nothing is written.
        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(photos[2])"))
        let damaged = SafetyFixtures.contents(folder.path("Library/\(photos[2])"))
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 1)
        #expect(SafetyFixtures.contents(folder.path("Library/\(photos[2])")) == damaged)
    }

    @Test("The next import files again what verify found damaged, from the sources at hand, and never moves them; one missing stays so until --repair")
    func theNextImportFilesAgainWhatVerifyFound() throws {
        let folder = try TemporaryFolder()
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        let good = filed.map { SafetyFixtures.contents(folder.path("Library/\($0.filed)")) }
        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(filed[0].filed)"))
        try FileManager.default.removeItem(atPath: folder.path("Library/\(filed[1].filed)"))

        let verified = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(verified.status == 1)
        #expect(verified.standardError == "dossier: 1 damaged or missing photo has a good copy: the next import into this library "
            + "files it again from it (`dossier verify --repair` does it now)\n", "\(verified.standardError)")
        let json = try DossierBinary.run(["verify", "--library", "Library", "--json"], in: folder.url)
        let summary = try #require(json.jsonLines.last?["summary"] as? [String: Any])
        #expect(summary["notedToFileAgain"] as? Int == 1)
        // verify itself wrote nothing to the files.
        #expect(SafetyFixtures.contents(folder.path("Library/\(filed[1].filed)")) == nil)

        // An import of something else, with --move: the damaged photo is filed again first, its
        // source (outside the library, at hand) read and left where it is; the missing one (deleted
        // by hand, perhaps on purpose) is not.
        try folder.write(SafetyFixtures.jpeg(seed: 9), to: "later/pets/leo/IMG_0009.JPG")
        let next = try DossierBinary.run(["import", "later", "--library", "Library", "--move"], in: folder.url)
        #expect(next.status == 0, "\(next.standardOutput)\(next.standardError)")
        #expect(next.standardError.contains("filing again 1 damaged or missing photo that `dossier verify` found, "
            + "from its good copy"), "\(next.standardError)")
        #expect(SafetyFixtures.contents(folder.path("Library/\(filed[1].filed)")) == nil)
        #expect(try DossierBinary.run(["verify", "--repair", "--library", "Library"], in: folder.url).status == 0)
        #expect(filed.map { SafetyFixtures.contents(folder.path("Library/\($0.filed)")) } == good, "the photos are not all good again")
        for photo in filed { #expect(FileManager.default.fileExists(atPath: photo.source), "\(photo.source)") }
        #expect(!FileManager.default.fileExists(atPath: folder.path("later/pets/leo/IMG_0009.JPG")))
        let damagedCopies = try FileManager.default.subpathsOfDirectory(atPath: folder.path("Library/damaged"))
            .filter { $0.hasSuffix(".jpg") }
        #expect(damagedCopies.count == 1 && damagedCopies[0].hasSuffix(filed[0].filed), "\(damagedCopies)")

        // Mended and forgotten: the library is whole, and the import after files nothing again.
        let after = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(after.status == 0, "\(after.standardOutput)")
        let again = try DossierBinary.run(["import", "later", "--library", "Library"], in: folder.url)
        #expect(!again.standardError.contains("filing again"), "\(again.standardError)")
    }

    @Test("verify --repair after a verify that noted the photos files each once, and leaves nothing noted; a good copy changed since is not filed")
    func repairAfterANotingVerifyFilesEachOnce() throws {
        let folder = try TemporaryFolder()
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(filed[0].filed)"))
        try FileManager.default.removeItem(atPath: folder.path("Library/\(filed[1].filed)"))
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 1)

        let repaired = try DossierBinary.run(["verify", "--repair", "--library", "Library", "--json"], in: folder.url)
        #expect(repaired.status == 0, "\(repaired.standardOutput)\(repaired.standardError)")
        let refiled = repaired.jsonLines.filter { $0["refiled"] as? Bool == true }.compactMap { $0["source"] as? String }
        #expect(refiled.sorted() == [filed[0].source, filed[1].source].sorted())
        #expect(repaired.standardError.components(separatedBy: "filing again").count == 2, "\(repaired.standardError)")
        #expect(repaired.standardError.contains("filing again 2 damaged or missing photos"), "\(repaired.standardError)")
        #expect(repaired.jsonLines.last?["summary"].flatMap { ($0 as? [String: Any])?["notedToFileAgain"] as? Int } == 0)
        try folder.write("", to: "empty/.keep")
        let next = try DossierBinary.run(["import", "empty", "--library", "Library"], in: folder.url)
        #expect(next.standardError.isEmpty, "\(next.standardError)")
    }

    @Test("verify --repair files nothing from a source changed since it was imported, even at the same size")
    func repairRefusesAChangedGoodCopy() throws {
        let folder = try TemporaryFolder()
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(filed[0].filed)"))
        let damaged = SafetyFixtures.contents(folder.path("Library/\(filed[0].filed)"))
        var changed = try #require(SafetyFixtures.contents(filed[0].source))
        changed[changed.count - 3] ^= 0xFF
        try Data(changed).write(to: URL(fileURLWithPath: filed[0].source))
        let photoFolder = folder.path("Library/" + (filed[0].filed as NSString).deletingLastPathComponent)
        let before = try FileManager.default.contentsOfDirectory(atPath: photoFolder).sorted()

        let repaired = try DossierBinary.run(["verify", "--repair", "--library", "Library"], in: folder.url)
        #expect(repaired.status == 1)
        // Hashed before it is named: no good copy, and nothing noted or filed from it.
        #expect(repaired.standardOutput.contains("; its source at \(filed[0].source) has changed since it was imported (its bytes are "
            + "not the ones filed from it), and is no good copy\n"), "\(repaired.standardOutput)")
        #expect(!repaired.standardError.contains("good copy"), "\(repaired.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: photoFolder).sorted() == before)
        #expect(SafetyFixtures.contents(folder.path("Library/\(filed[0].filed)")) == damaged)
    }

    @Test("A dry run with photos noted says the real import would file them again first, and files and forgets nothing")
    func aDryRunWithNotedPhotosChangesNothing() throws {
        let folder = try TemporaryFolder()
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(filed[0].filed)"))
        let damaged = SafetyFixtures.contents(folder.path("Library/\(filed[0].filed)"))
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 1)
        try folder.write("", to: "empty/.keep")
        let dry = try DossierBinary.run(["import", "empty", "--library", "Library", "--dry-run"], in: folder.url)
        #expect(dry.standardError.contains("the import would first file again 1 damaged or missing photo that `dossier verify` found "
            + "(not shown in this dry run)"), "\(dry.standardError)")
        #expect(!dry.standardOutput.contains(filed[0].source), "\(dry.standardOutput)")
        #expect(SafetyFixtures.contents(folder.path("Library/\(filed[0].filed)")) == damaged)
        #expect(try DossierBinary.run(["import", "empty", "--library", "Library"], in: folder.url).status == 0)
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
    }

    @Test("verify --quick notes neither a missing photo nor one written to at the same size; a renamed subject is never made again by a note")
    func quickNotesNothingAndNotesNeverMakeSubjects() throws {
        let folder = try TemporaryFolder()
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        // The same bytes written again: later, not damaged.
        let path = folder.path("Library/\(filed[0].filed)")
        let bytes = try #require(SafetyFixtures.contents(path))
        try FileManager.default.removeItem(atPath: path)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: path)
        try FileManager.default.removeItem(atPath: folder.path("Library/\(filed[1].filed)"))
        let quick = try DossierBinary.run(["verify", "--quick", "--library", "Library"], in: folder.url)
        #expect(quick.status == 1)
        #expect(quick.standardError.isEmpty, "\(quick.standardError)")
        // A damaged photo, noted by a full check, whose subject is then renamed.
        try VerifySafetyTests.flipBytes(in: folder.path("Library/\(filed[2].filed)"))
        let full = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(full.standardError == "dossier: 1 damaged or missing photo has a good copy: the next import into this library "
            + "files it again from it (`dossier verify --repair` does it now)\n", "\(full.standardError)")

        try FileManager.default.moveItem(atPath: folder.path("Library/pets/leo"), toPath: folder.path("Library/pets/leo2"))
        try folder.write("", to: "empty/.keep")
        let next = try DossierBinary.run(["import", "empty", "--library", "Library"], in: folder.url)
        #expect(next.standardError.contains("\(filed[2].filed) was found damaged or missing by `dossier verify`, and its subject "
            + "pets/leo is no longer in the library: it cannot be filed again"), "\(next.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/leo")))
    }

    @Test("Ctrl-C while noted photos are filed again keeps the notes of those not reached; the next import mends them")
    func anInterruptedMendingKeepsTheRest() throws {
        let folder = try TemporaryFolder()
        for seed in 1...60 {
            try folder.write(SafetyFixtures.jpeg(width: 320, height: 240, orientation: 1, seed: seed), to: "dump/pets/leo/IMG_\(seed).JPG")
        }
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url).status == 0)
        let photos = folder.files(under: "Library/pets/leo/photos")
        let good = photos.map { SafetyFixtures.contents(folder.path("Library/pets/leo/photos/\($0)")) }
        for photo in photos { try VerifySafetyTests.flipBytes(in: folder.path("Library/pets/leo/photos/\(photo)")) }
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 1)

        try folder.write("", to: "empty/.keep")
        let importing = DossierBinary.process(["import", "empty", "--library", "Library", "--jobs", "1"], in: folder.url)
        importing.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        importing.standardError = errors
        try importing.run()
        let deadline = Date().addingTimeInterval(30)
        while importing.isRunning && folder.files(under: "Library/damaged").count < 3 && Date() < deadline { usleep(2_000) }
        kill(importing.processIdentifier, SIGINT)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        importing.waitUntilExit()
        #expect([0, 130].contains(importing.terminationStatus))
        #expect(!said.contains("still does not hold the bytes"), "\(said)")

        #expect(try DossierBinary.run(["import", "empty", "--library", "Library"], in: folder.url).status == 0)
        #expect(photos.map { SafetyFixtures.contents(folder.path("Library/pets/leo/photos/\($0)")) } == good, "not every photo was mended")
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
    }

    @Test("A copy of a library mends from its own originals, not from the library it was copied from")
    func aCopiedLibraryMendsFromItsOwnOriginals() throws {
        let folder = try TemporaryFolder()
        let (destination, original) = try OriginalsSafetyTests.movedWithItsOriginal(in: folder)
        let good = try #require(SafetyFixtures.contents(destination))
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: destination))
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 1)
        try FileManager.default.copyItem(atPath: folder.path("Library"), toPath: folder.path("Copy"))
        // The first library's original changed: were it read, the copy would not be mended.
        try Data([0x00]).write(to: URL(fileURLWithPath: original))

        try folder.write("", to: "empty/.keep")
        let next = try DossierBinary.run(["import", "empty", "--library", "Copy"], in: folder.url)
        #expect(next.status == 0, "\(next.standardOutput)\(next.standardError)")
        let library = folder.path("Library")
        #expect(SafetyFixtures.contents(folder.path("Copy") + destination.dropFirst(library.count)) == good)
        #expect(try DossierBinary.run(["verify", "--library", "Copy"], in: folder.url).status == 0)
    }

    @Test("verify names no damaged original as the good copy of a damaged photo")
    func aDamagedOriginalIsNoGoodCopy() throws {
        let folder = try TemporaryFolder()
        let (destination, original) = try OriginalsSafetyTests.movedWithItsOriginal(in: folder)
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: destination))
        var bytes = try #require(SafetyFixtures.contents(original))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: original))
        let verified = try DossierBinary.run(["verify", "--library", "Library", "--json"], in: folder.url)
        #expect(verified.status == 1)
        let photo = try #require(verified.jsonLines.first { ($0["path"] as? String).map { destination.hasSuffix($0) } == true })
        #expect(photo["goodCopy"] == nil, "\(photo)")
        let kept = String(original.dropFirst(folder.path("Library").count + 1))
        #expect((photo["reason"] as? String)?.hasSuffix("; its original \(kept) is damaged too, and no good copy") == true, "\(photo)")
        #expect(verified.standardError.isEmpty, "\(verified.standardError)")
    }

    @Test("A photo verify noted whose good copy is gone, changed or a link before the next import is said and forgotten, never filed from it")
    func aNotedPhotoWhoseGoodCopyIsGoneIsSaid() throws {
        let folder = try TemporaryFolder()
        let filed = try VerifySafetyTests.importedLibraryWithSources(in: folder)
        var damaged: [[UInt8]?] = []
        for photo in filed {
            try VerifySafetyTests.flipBytes(in: folder.path("Library/\(photo.filed)"))
            damaged.append(SafetyFixtures.contents(folder.path("Library/\(photo.filed)")))
        }
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 1)
        // Gone; the same size with other bytes (verify knew it by path and size); a link to a good copy.
        try FileManager.default.removeItem(atPath: filed[0].source)
        var changed = try #require(SafetyFixtures.contents(filed[1].source))
        changed[changed.count - 3] ^= 0xFF
        try Data(changed).write(to: URL(fileURLWithPath: filed[1].source))
        try FileManager.default.moveItem(atPath: filed[2].source, toPath: folder.path("elsewhere.jpg"))
        try FileManager.default.createSymbolicLink(atPath: filed[2].source, withDestinationPath: folder.path("elsewhere.jpg"))

        try folder.write("", to: "empty/.keep")
        let next = try DossierBinary.run(["import", "empty", "--library", "Library"], in: folder.url)
        for photo in filed {
            #expect(next.standardError.contains("\(photo.filed) was found damaged or missing by `dossier verify`, and its good copy "
                + "\(photo.source) is gone or has changed: it cannot be filed again; `dossier verify` says what is still wrong"),
                "\(next.standardError)")
        }
        #expect(filed.map { SafetyFixtures.contents(folder.path("Library/\($0.filed)")) } == damaged, "a damaged photo was changed")
        let photoFolder = folder.path("Library/" + (filed[0].filed as NSString).deletingLastPathComponent)
        #expect(try FileManager.default.contentsOfDirectory(atPath: photoFolder).count == 3, "a changed source was filed")
        let again = try DossierBinary.run(["import", "empty", "--library", "Library"], in: folder.url)
        #expect(!again.standardError.contains("was found damaged"), "\(again.standardError)")
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 1)
    }

    @Test("A damaged profile hides no other subject; verify --repair keeps its bytes under damaged/ and starts it again")
    func aDamagedProfileIsKeptAsideAndStartedAgain() throws {
        let folder = try TemporaryFolder()
        for (subject, name) in [("pets/leo", "Leo"), ("pets/coco", "Coco")] {
            #expect(try DossierBinary.run(["subjects", "add", subject, "--name", name, "--library", "Library"], in: folder.url).status == 0)
        }
        let damaged = Array("{\"name\": \"Le".utf8)
        try Data(damaged).write(to: URL(fileURLWithPath: folder.path("Library/pets/leo/profile.json")))
        let reason = "this profile is damaged: it is not JSON (cut short, or written over); `dossier verify --repair` keeps it "
            + "under damaged/ and starts it again"

        let listed = try DossierBinary.run(["subjects", "list", "--library", "Library"], in: folder.url)
        #expect(listed.status == 1)
        #expect(listed.standardOutput == "pets/coco  Coco\n")
        #expect(listed.standardError == "dossier: \(folder.path("Library/pets/leo/profile.json")): \(reason)\n")
        let shown = try DossierBinary.run(["subjects", "show", "pets/leo", "--library", "Library"], in: folder.url)
        #expect(shown.status == 1 && shown.standardError.contains(reason), "\(shown.standardError)")
        // A JSON object that is no profile is found too.
        try Data("{\"kind\": \"pets\", \"id\": \"coco\", \"name\": 5, \"aliases\": []}".utf8).write(to: URL(fileURLWithPath: folder.path("Library/pets/coco/profile.json")))
        let verified = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(verified.status == 1)
        #expect(verified.standardOutput.hasPrefix("""
            unreadable pets/coco/profile.json: 'name' is not what a profile holds there; `dossier verify --repair` keeps it under \
            damaged/ and starts it again
            unreadable pets/leo/profile.json: it is not JSON (cut short, or written over); `dossier verify --repair` keeps it under \
            damaged/ and starts it again

            """), "\(verified.standardOutput)")

        let repaired = try DossierBinary.run(["verify", "--repair", "--library", "Library", "--json"], in: folder.url)
        #expect(repaired.status == 0, "\(repaired.standardOutput)\(repaired.standardError)")
        let started = repaired.jsonLines.filter { $0["startedAgain"] != nil }
        #expect(started.compactMap { $0["startedAgain"] as? String } == ["pets/coco/profile.json", "pets/leo/profile.json"])
        let aside = try #require(started.last?["damagedCopy"] as? String)
        #expect(aside.hasPrefix("damaged/") && aside.hasSuffix("/pets/leo/profile.json"))
        #expect(SafetyFixtures.contents(folder.path("Library/\(aside)")) == damaged)
        let after = try DossierBinary.run(["subjects", "list", "--library", "Library"], in: folder.url)
        #expect(after.status == 0)
        #expect(after.standardOutput == "pets/coco  coco\npets/leo  leo\n")
    }

    @Test("A profile naming another subject, or a link at a profile's name, is found; the link is never followed and is kept aside by --repair")
    func aProfileOfAnotherSubjectOrALinkIsFound() throws {
        let folder = try TemporaryFolder()
        for (subject, name) in [("pets/max", "Max"), ("pets/bo", "Bo")] {
            #expect(try DossierBinary.run(["subjects", "add", subject, "--name", name, "--library", "Library"], in: folder.url).status == 0)
        }
        try Data("{\"kind\": \"pets\", \"id\": \"other\", \"name\": \"Impostor\"}".utf8)
            .write(to: URL(fileURLWithPath: folder.path("Library/pets/max/profile.json")))
        try folder.write("{\"kind\": \"pets\", \"id\": \"bo\", \"name\": \"Outside\"}", to: "outside.json")
        try FileManager.default.removeItem(atPath: folder.path("Library/pets/bo/profile.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("Library/pets/bo/profile.json"),
                                                   withDestinationPath: folder.path("outside.json"))

        let shown = try DossierBinary.run(["subjects", "show", "pets/bo", "--library", "Library"], in: folder.url)
        #expect(shown.status == 1 && !shown.standardOutput.contains("Outside"), "\(shown.standardOutput)")
        #expect(shown.standardError.contains("a link or another kind of file stands where it belongs"), "\(shown.standardError)")
        let max = try DossierBinary.run(["subjects", "show", "pets/max", "--library", "Library"], in: folder.url)
        #expect(max.status == 1)
        #expect(max.standardError.contains("this profile is damaged: it is the profile of pets/other, not of pets/max"), "\(max.standardError)")
        let verified = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(verified.standardOutput.contains("damaged    pets/bo/profile.json: a link stands at its name, not the file filed there; "
            + "`dossier verify --repair` keeps it under damaged/ and starts the profile again"), "\(verified.standardOutput)")
        #expect(verified.standardOutput.contains("unreadable pets/max/profile.json: it is the profile of pets/other, not of pets/max"),
                "\(verified.standardOutput)")

        let repaired = try DossierBinary.run(["verify", "--repair", "--library", "Library"], in: folder.url)
        #expect(repaired.status == 0, "\(repaired.standardOutput)\(repaired.standardError)")
        #expect(SafetyFixtures.contents(folder.path("outside.json")).map { String(decoding: $0, as: UTF8.self) }?.contains("Outside") == true)
        let listed = try DossierBinary.run(["subjects", "list", "--library", "Library"], in: folder.url)
        #expect(listed.standardOutput == "pets/bo  bo\npets/max  max\n")
    }

    @Test("verify beside an import under way reports nothing the import is still filing")
    func verifyBesideAnImport() throws {
        let folder = try TemporaryFolder()
        _ = try VerifySafetyTests.importedLibrary(in: folder)
        for seed in 100..<400 {
            try folder.write(SafetyFixtures.jpeg(width: 32, height: 16, orientation: 1, seed: seed), to: "more/pets/leo/IMG_\(seed).JPG")
        }
        let importing = DossierBinary.process(["import", "more", "--library", "Library"], in: folder.url)
        importing.standardOutput = FileHandle.nullDevice
        importing.standardError = FileHandle.nullDevice
        try importing.run()
        var runs = 0
        while importing.isRunning || runs == 0 {
            runs += 1
            let result = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
            #expect(result.status == 0, "verify run \(runs): \(result.standardOutput)")
        }
        importing.waitUntilExit()
        #expect(importing.terminationStatus == 0)
        let after = try DossierBinary.run(["verify", "--library", "Library"], in: folder.url)
        #expect(after.status == 0, "\(after.standardOutput)")
        // The import's photos (some of the small pictures alike, filed once) are all checked now.
        #expect(after.standardOutput.hasSuffix(": all is well.\n"), "\(after.standardOutput)")
    }
}
