import DossierCore
import Foundation
import DossierTestSupport
import Testing

/// The library as a source, symbolic links inside it, damaged filed copies and `--move`: every
/// way found for an import to delete or write what it should not.
@Suite("The library keeps what it was trusted with")
struct LibrarySafetyTests {
    /// A dump of three sideways photos under `dump/pets/leo`, imported once into `Library`.
    static func importedDump(in folder: TemporaryFolder) throws -> [String: [UInt8]] {
        for seed in 1...3 {
            try folder.write(SafetyFixtures.jpeg(seed: seed), to: "dump/pets/leo/IMG_000\(seed).JPG")
        }
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        return filedPhotos(in: folder)
    }

    /// Every filed photo's bytes, by its path below the library.
    static func filedPhotos(in folder: TemporaryFolder) -> [String: [UInt8]] {
        var photos: [String: [UInt8]] = [:]
        for path in folder.files(under: "Library") where path.contains("/photos/") {
            photos[path] = SafetyFixtures.contents(folder.path("Library/\(path)"))
        }
        return photos
    }

    @Test("Moving the library's own folder is refused and deletes nothing")
    func theLibraryIsNeverASource() throws {
        let folder = try TemporaryFolder()
        let filed = try LibrarySafetyTests.importedDump(in: folder)
        #expect(filed.count == 3)

        let result = try DossierBinary.run(["import", "--create", "Library/pets", "--library", "Library", "--move", "--json"],
                                           in: folder.url)
        #expect(result.status == 1)
        #expect(result.outcomes.count == 1)
        #expect(result.outcomes.first?["status"] as? String == "failed")
        let library = try #require(LibraryBoundary(root: folder.path("Library")).realRoot)
        #expect(result.outcomes.first?["error"] as? String == "\(library)/pets: it is inside the library \(library); "
            + "Dossier never imports its own library (to re-index it, run `dossier index rebuild`)")
        #expect(LibrarySafetyTests.filedPhotos(in: folder) == filed)
    }

    @Test("A library reached through a link, or a source that is a link to a folder holding the library, is still never a source")
    func linksDoNotHideTheLibrary() throws {
        let folder = try TemporaryFolder()
        let filed = try LibrarySafetyTests.importedDump(in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link-to-library"), withDestinationPath: "Library")
        try FileManager.default.createSymbolicLink(atPath: folder.path("link-to-all"), withDestinationPath: folder.path)

        let throughLibraryLink = try DossierBinary.run(
            ["import", "--create", "Library/pets", "--library", "link-to-library", "--move", "--json"], in: folder.url)
        #expect(throughLibraryLink.status == 1)
        #expect(throughLibraryLink.summary?["failed"] as? Int == 1)

        // The named folder holds the dump and the library: the dump's photos are duplicates
        // (removed, being safe), the library is passed over, and said so; the two links to
        // folders met inside it are never walked, and said (exit 3: a person may want them).
        let throughSourceLink = try DossierBinary.run(
            ["import", "--create", "link-to-all", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(throughSourceLink.status == 3, "\(throughSourceLink.standardOutput)")
        let sources = throughSourceLink.outcomes.filter { $0["status"] as? String != "skipped" }.compactMap { $0["source"] as? String }
        #expect(sources.count == 3)
        #expect(sources.allSatisfy { $0.contains("/dump/pets/leo/") })
        let links = throughSourceLink.outcomes.filter { $0["errorCode"] as? String == "link-not-followed" }
        #expect(links.compactMap { $0["source"] as? String } == ["link-to-all/link-to-all", "link-to-all/link-to-library"].map(folder.path))
        let passedOver = throughSourceLink.outcomes.filter {
            $0["status"] as? String == "skipped" && $0["errorCode"] as? String != "link-not-followed"
        }
        #expect(passedOver.compactMap { $0["source"] as? String } == [folder.path("link-to-all/Library")])
        #expect((passedOver.first?["error"] as? String)?.hasSuffix("Dossier never takes its own library apart") == true)
        #expect(LibrarySafetyTests.filedPhotos(in: folder) == filed)
    }

    @Test("A duplicate's source is removed only after its filed copy is checked: emptied, dangling or replaced copies are filed again")
    func damagedFiledCopiesAreFiledAgainBeforeTheSourceGoes() throws {
        let folder = try TemporaryFolder()
        let filed = try LibrarySafetyTests.importedDump(in: folder)
        let paths = filed.keys.sorted()
        // One emptied, one a dangling link, one overwritten by another picture.
        try Data().write(to: folder.url.appendingPathComponent("Library/\(paths[0])"))
        try FileManager.default.removeItem(atPath: folder.path("Library/\(paths[1])"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("Library/\(paths[1])"),
                                                   withDestinationPath: folder.path("nowhere.jpg"))
        try Data(SafetyFixtures.jpeg(seed: 99)).write(to: folder.url.appendingPathComponent("Library/\(paths[2])"))

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.summary?["imported"] as? Int == 3)
        for outcome in result.outcomes {
            let warnings = outcome["warnings"] as? [String] ?? []
            let destination = try #require(outcome["destination"] as? String)
            // Filed again under the name it had, the damaged copy (or link) kept aside.
            #expect(warnings.first == "the filed copy \(destination) was damaged (its bytes are not the ones filed); "
                + "filed again from this source", "\(outcome)")
            #expect(outcome["refiled"] as? Bool == true, "\(outcome)")
            #expect(outcome["sourceRemoved"] as? Bool == true, "\(outcome)")
            // The source is gone only because an intact copy of its picture is in the library.
            #expect(filed.values.contains(SafetyFixtures.contents(destination) ?? []), "\(destination)")
        }
        #expect(folder.files(under: "dump").isEmpty)
    }

    @Test("Without --move a filed copy cut short is reported and filed again too")
    func damagedCopiesAreReportedWithoutMove() throws {
        let folder = try TemporaryFolder()
        let filed = try LibrarySafetyTests.importedDump(in: folder)
        let damaged = try #require(filed.keys.sorted().first)
        try Data([0xFF, 0xD8]).write(to: folder.url.appendingPathComponent("Library/\(damaged)"))
        // Touch the source so the index does not settle it unread.
        let source = folder.path("dump/pets/leo/IMG_0001.JPG")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: source)

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0)
        let refiled = result.outcomes.filter { ($0["warnings"] as? [String] ?? []).contains {
            $0 == "the filed copy \(folder.path("Library/\(damaged)")) was damaged (its bytes are not the ones filed); filed again from this source"
        } }
        #expect(refiled.count == 1)
        #expect(refiled.first?["status"] as? String == "imported")
    }

    @Test("A log with lines that were not filed is removed by --move only once its kept copy holds every byte")
    func movedLogsAreKeptWhole() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "레오", "--library", "Library"],
                                          in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        let log = """
            2024-03-02 레오 귀뚜라미 5마리
            2024-03-03 레우 탈피
            물갈이 했음
            2024-03-05 레오 체중 45g

            """
        let bytes = Array(log.utf8)
        try folder.write(bytes, to: "notes/shared.txt")

        let result = try DossierBinary.run(["import", "--create", "notes", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(result.status == 3, "\(result.standardOutput)")
        let outcome = try #require(result.outcomes.first)
        #expect(outcome["sourceRemoved"] as? Bool == true)
        #expect((outcome["records"] as? [String: Int]) == ["added": 2, "duplicate": 0, "removed": 0])
        #expect((outcome["problems"] as? [String]) == [
            "\(folder.path("notes/shared.txt")): 2 entries not filed (lines 2, 3): no subject: give --subject KIND/ID, "
                + "or put the file under a pets/<id> or children/<id> folder",
        ])
        #expect(!FileManager.default.fileExists(atPath: folder.path("notes/shared.txt")))

        let kept = folder.files(under: "Library/sources")
        #expect(kept.count == 1)
        let keptPath = try #require(kept.first)
        #expect(keptPath.hasPrefix("shared_") && keptPath.hasSuffix(".txt"))
        #expect(SafetyFixtures.contents(folder.path("Library/sources/\(keptPath)")) == bytes)
        // Each record names the kept copy, the original path and the line.
        let yearFile = try String(contentsOfFile: folder.path("Library/pets/leo/records/2024.jsonl"), encoding: .utf8)
        #expect(yearFile.contains(#""kept":"sources/\#(keptPath)""#))
        #expect(yearFile.contains(#""line":4"#))
    }

    @Test("A photos folder that is a link out of the library is refused: nothing is written through it")
    func aPhotosLinkLeadsNowhere() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("Library/pets/leo"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("Library/pets/leo/photos"),
                                                   withDestinationPath: folder.path("elsewhere"))
        try folder.write(SafetyFixtures.jpeg(seed: 4), to: "dump/IMG_0004.JPG")

        let result = try DossierBinary.run(["import", "dump", "--subject", "pets/leo", "--library", "Library", "--move",
                                            "--json"], in: folder.url)
        #expect(result.status == 1)
        let error = try #require(result.outcomes.first?["error"] as? String)
        #expect(error.contains("Library/pets/leo/photos is a symbolic link inside the library; Dossier never follows links there"))
        #expect(folder.files(under: "elsewhere").isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.path("dump/IMG_0004.JPG")))
    }

    @Test("A records folder that is a link out of the library is refused: no year file is written through it")
    func aRecordsLinkLeadsNowhere() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("Library/pets/leo"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("Library/pets/leo/records"),
                                                   withDestinationPath: folder.path("elsewhere"))
        try folder.write("2024-03-02 귀뚜라미 5마리\n", to: "notes/leo.txt")

        let result = try DossierBinary.run(["import", "notes/leo.txt", "--subject", "pets/leo", "--library", "Library",
                                            "--move", "--json"], in: folder.url)
        #expect(result.status == 1)
        #expect((result.outcomes.first?["error"] as? String)?.contains("records is a symbolic link inside the library") == true)
        #expect(folder.files(under: "elsewhere").isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.path("notes/leo.txt")))
    }

    @Test("A staging folder or lock that is a link is refused before anything is cleared or truncated")
    func linkedStagingAndLockAreRefused() throws {
        for linked in [".dossier/staging", ".dossier/lock"] {
            let folder = try TemporaryFolder()
            try FileManager.default.createDirectory(atPath: folder.path("Library/.dossier"), withIntermediateDirectories: true)
            let precious = try folder.write("a keeper's only copy\n", to: "elsewhere/precious.txt")
            let target = linked.hasSuffix("lock") ? precious : folder.path("elsewhere")
            try FileManager.default.createSymbolicLink(atPath: folder.path("Library/\(linked)"), withDestinationPath: target)
            try folder.write(SafetyFixtures.jpeg(seed: 5), to: "dump/pets/leo/IMG_0005.JPG")

            let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
            #expect(result.status == 2, "\(linked)")
            #expect(result.standardError.contains("Library/\(linked) is a symbolic link inside the library"), "\(result.standardError)")
            #expect(SafetyFixtures.contents(precious) == Array("a keeper's only copy\n".utf8), "\(linked)")
        }
    }

    @Test("A folder named twice, itself and through a link to it, is imported once: --move removes every source, none fails")
    func aFolderNamedTwiceIsImportedOnce() throws {
        let folder = try TemporaryFolder()
        for seed in 1...3 { try folder.write(SafetyFixtures.jpeg(seed: seed), to: "dump/pets/leo/IMG_000\(seed).JPG") }
        try FileManager.default.createSymbolicLink(atPath: folder.path("dump-link"), withDestinationPath: folder.path("dump"))
        let result = try DossierBinary.run(["import", "--create", "dump", "dump-link", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.summary?["total"] as? Int == 3)
        #expect(result.summary?["failed"] as? Int == 0)
        #expect(folder.files(under: "dump").isEmpty)
        #expect(LibrarySafetyTests.filedPhotos(in: folder).count == 3)
    }
}
