import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// A library is known by its id, not its path: only `init`, the first import and `subjects add`
/// make one; an index is this library's own or is rebuilt; and no second mount of the library's
/// disk, however it is named, lets an import take the library's own files for sources.
@Suite("A library is known by its id")
struct LibraryIdentitySafetyTests {
    static func identity(_ folder: TemporaryFolder, _ library: String = "Library") throws -> LibraryIdentity {
        let layout = LibraryLayout(root: folder.url.appendingPathComponent(library))
        guard case .identified(let identity) = try LibraryIdentity.state(of: layout) else {
            throw LibraryError.noLibrary(path: layout.root.path)
        }
        return identity
    }

    static func indexID(_ folder: TemporaryFolder, _ library: String = "Library") throws -> String? {
        let index = try LibraryIndex.openReadOnly(LibraryLayout(root: folder.url.appendingPathComponent(library)))
        defer { index?.close() }
        return try index?.libraryID()
    }

    /// Whether `mount --bind` works here (root, with CAP_SYS_ADMIN: CI has it).
    static let canBindMount: Bool = {
        guard getuid() == 0, let folder = try? TemporaryFolder() else { return false }
        try? FileManager.default.createDirectory(atPath: folder.path("a"), withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: folder.path("b"), withIntermediateDirectories: true)
        guard mount(folder.path("a"), folder.path("b"), nil, UInt(MS_BIND), nil) == 0 else { return false }
        umount(folder.path("b"))
        return true
    }()

    static func bindMount(_ source: String, at target: String) throws {
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        #expect(mount(source, target, nil, UInt(MS_BIND), nil) == 0, "mount --bind \(source) \(target)")
    }

    @Test("`dossier init` makes a library with a random id, in its id file and its index; a second init changes nothing")
    func initMakesALibraryWithAnID() throws {
        let folder = try TemporaryFolder()
        let made = try DossierBinary.run(["init", "Library", "--time-zone", "Asia/Seoul"], in: folder.url)
        #expect(made.status == 0, "\(made.standardError)")
        let identity = try LibraryIdentitySafetyTests.identity(folder)
        #expect(identity.id.count == 32 && identity.id.allSatisfy(\.isHexDigit))
        #expect(made.standardOutput.hasPrefix("Created library at \(folder.path("Library")) (id \(identity.shortID))."))
        #expect(made.standardOutput.contains("Its dates are read in Asia/Seoul"))
        #expect(try LibraryIdentitySafetyTests.indexID(folder) == identity.id)

        let again = try DossierBinary.run(["init", "--library", "Library"], in: folder.url)
        #expect(again.status == 1)
        #expect(again.standardError == "dossier: \(folder.path("Library")) is a library already (id \(identity.shortID)); nothing was changed\n")
        #expect(try LibraryIdentitySafetyTests.identity(folder) == identity)

        let other = try DossierBinary.run(["init", "Other"], in: folder.url)
        #expect(other.status == 0)
        #expect(try LibraryIdentitySafetyTests.identity(folder, "Other").id != identity.id)
    }

    @Test("only import and subjects add make a library where there is none, saying so; every other command refuses and makes nothing")
    func onlyTheFirstImportMakesALibrary() throws {
        let folder = try TemporaryFolder()
        try folder.write("2024-03-01 Rex weight 400 g\n", to: "rex.txt")
        for arguments in [["subjects", "edit", "pets/rex", "--name", "Rex"], ["problems", "dismiss", "1"],
                          ["problems", "retry"], ["quarantine", "retry", "--all"], ["index", "rebuild"],
                          ["records", "pets/rex"], ["problems"], ["quarantine", "list"], ["subjects", "list"], ["today"]] {
            let refused = try DossierBinary.run(arguments + ["--library", "Unmounted/Library"], in: folder.url)
            #expect(refused.status == 2, "\(arguments): \(refused.standardError)")
            #expect(refused.standardError.contains("there is no library at \(folder.path("Unmounted/Library"))"),
                    "\(arguments): \(refused.standardError)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("Unmounted")), "\(arguments) made a folder")
        }
        let added = try DossierBinary.run(["subjects", "add", "pets/rex", "--name", "Rex", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)
        let identity = try LibraryIdentitySafetyTests.identity(folder)
        #expect(added.standardError == "dossier: created library at \(folder.path("Library")) (id \(identity.shortID))\n")
        let imported = try DossierBinary.run(["import", "rex.txt", "--library", "Library2", "--subject", "pets/rex", "--create"],
                                             in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.hasPrefix("dossier: created library at \(folder.path("Library2")) (id "))
        // Only the first time.
        let again = try DossierBinary.run(["import", "--create", "rex.txt", "--library", "Library2"], in: folder.url)
        #expect(!again.standardError.contains("created library"))
        // A dry run makes nothing, not even the folder.
        let dry = try DossierBinary.run(["import", "--create", "rex.txt", "--library", "Library3", "--dry-run"], in: folder.url)
        #expect(dry.status == 3)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library3")))
    }

    @Test("two first imports at once into the same new folder make one library, with one id")
    func twoFirstImportsMakeOneLibrary() throws {
        let folder = try TemporaryFolder()
        for index in 0..<2 { try folder.write(SafetyFixtures.jpeg(seed: 50 + index), to: "dump\(index)/pets/rex/a.jpg") }
        let imports = (0..<2).map { DossierBinary.process(["import", "--create", "dump\($0)", "--library", "Library"], in: folder.url) }
        let errors = imports.map { process -> Pipe in
            let pipe = Pipe()
            process.standardError = pipe
            process.standardOutput = FileHandle.nullDevice
            return pipe
        }
        for process in imports { try process.run() }
        let said = errors.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        for process in imports { process.waitUntilExit() }
        #expect(imports.map(\.terminationStatus) == [0, 0], "\(said)")
        #expect(said.filter { $0.contains("created library at") }.count == 1, "\(said)")
        let identity = try LibraryIdentitySafetyTests.identity(folder)
        #expect(try LibraryIdentitySafetyTests.indexID(folder) == identity.id)
        #expect(folder.files(under: "Library/pets/rex/photos").count == 2)
    }

    @Test("a library made before libraries had ids is refused by the commands that make none, and takes its index's id from init or the next import, saying so",
          arguments: [["init", "Library"], ["import", "--create", "dump", "--library", "Library"]])
    func aLibraryFromBeforeIDsKeepsItsIndexID(giving arguments: [String]) throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 1), to: "dump/pets/rex/a.jpg")
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url).status == 0)
        let identity = try LibraryIdentitySafetyTests.identity(folder)
        try FileManager.default.removeItem(atPath: folder.path("Library/.dossier/library.json"))
        // A folder without an id may as well be a dump sorted like a library: refused, and given no id.
        let listed = try DossierBinary.run(["subjects", "list", "--library", "Library"], in: folder.url)
        #expect(listed.status == 2)
        #expect(listed.standardError.contains("run `dossier init \(folder.path("Library"))`"), "\(listed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/.dossier/library.json")))

        let written = try DossierBinary.run(arguments, in: folder.url)
        #expect(written.status == 0, "\(written.standardError)")
        #expect((written.standardError + written.standardOutput).contains("made by an earlier Dossier, now has its id (\(identity.shortID))"))
        #expect(try LibraryIdentitySafetyTests.identity(folder).id == identity.id)
        #expect(try DossierBinary.run(["subjects", "list", "--library", "Library"], in: folder.url).status == 0)
    }

    @Test("a photo dump sorted into pets/<id>/ given as --library is never made a library: every command but init, import and subjects add refuses it, naming it and `dossier init`, and leaves it as it was")
    func aDumpGivenAsTheLibraryStaysADump() async throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 7), to: "dump/pets/leo/IMG_0007.JPG")
        try folder.write("2024-03-01 leo weight 45 g\n", to: "dump/pets/leo/log.txt")
        let before = folder.files(under: "dump")
        try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
        for arguments in [["verify"], ["verify", "--quick"], ["index", "rebuild"], ["report"], ["subjects", "edit", "pets/leo", "--name", "Leo"],
                          ["subjects", "list"], ["subjects", "show", "pets/leo"], ["problems"], ["problems", "retry"],
                          ["quarantine", "list"], ["quarantine", "retry", "--all"], ["records", "pets/leo"], ["today"],
                          ["watch", "inbox"]] {
            // Bounded: a daemon that started would run until stopped.
            let refused = try DossierBinary.run(arguments + ["--library", "dump"], in: folder.url, launcher: ["/usr/bin/timeout", "20"])
            #expect(refused.status == 2, "\(arguments): \(refused.standardError)")
            #expect(refused.standardError.hasPrefix("dossier: \(folder.path("dump")) holds no library id (.dossier/library.json), so it "
                + "is not a library"), "\(arguments): \(refused.standardError)")
            #expect(refused.standardError.contains("run `dossier init \(folder.path("dump"))`"), "\(arguments)")
            #expect(!refused.standardError.contains("index rebuild"), "\(arguments)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("dump")) == ["pets"], "\(arguments) made something")
        }
        #expect(folder.files(under: "dump") == before)
        // Still a dump: imported, every file of it is filed.
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardOutput)")
        #expect(imported.summary?["imported"] as? Int == 2, "\(imported.standardOutput)")
        #expect(imported.summary?["skipped"] as? Int == 0)
    }

    @Test("init, import and subjects add never make a library inside another library or around one, and make nothing there",
          arguments: [["init", "HERE"], ["import", "--create", "dump", "--library", "HERE"],
                      ["subjects", "add", "pets/rex", "--name", "Rex", "--library", "HERE"]])
    func noLibraryInsideAnother(making arguments: [String]) throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 8), to: "dump/pets/leo/IMG_0008.JPG")
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "Outer/L"], in: folder.url).status == 0)
        let outer = folder.files(under: "Outer")
        for (here, other, place) in [("Outer/L/pets/leo/photos/x", "Outer/L", "it lies inside the library"),
                                     ("Outer", "Outer/L", "it holds the library")] {
            let made = try DossierBinary.run(arguments.map { $0 == "HERE" ? here : $0 }, in: folder.url)
            #expect(made.status == 2, "\(arguments) at \(here): \(made.standardError)")
            #expect(made.standardError.contains("dossier: refused to make a library at \(folder.path(here)): \(place) "
                + "\(folder.path(other)), and a library inside another would have its index, lock and settings taken for the outer "
                + "one's files"), "\(made.standardError)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("Outer/L/pets/leo/photos/x")))
            #expect(!FileManager.default.fileExists(atPath: folder.path("Outer/.dossier")))
            #expect(!FileManager.default.fileExists(atPath: folder.path("Outer/config")))
            #expect(folder.files(under: "Outer") == outer)
        }
    }

    @Test("index rebuild and verify pass over a folder among the filed files that holds another library, saying so; none of its files is indexed or called damaged")
    func anotherLibraryAmongTheFiledFilesIsPassedOver() throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 9), to: "dump/pets/leo/IMG_0009.JPG")
        try folder.write(SafetyFixtures.jpeg(seed: 10), to: "other/pets/leo/IMG_0010.JPG")
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "L"], in: folder.url).status == 0)
        // Made elsewhere and moved in (an earlier Dossier made it there itself).
        #expect(try DossierBinary.run(["import", "--create", "other", "--library", "inner"], in: folder.url).status == 0)
        try FileManager.default.moveItem(atPath: folder.path("inner"), toPath: folder.path("L/pets/leo/photos/x"))

        let rebuilt = try DossierBinary.run(["index", "rebuild", "--library", "L"], in: folder.url)
        #expect(rebuilt.status == 3, "\(rebuilt.standardError)")
        #expect(rebuilt.standardOutput == "Indexed 1 photo and 0 year files of records in \(folder.path("L"))\n")
        #expect(rebuilt.standardError == "dossier: \(folder.path("L"))/pets/leo/photos/x holds another Dossier library: passed over, "
            + "none of its files indexed as this library's; move it out of this library's folders\n")
        for _ in 0..<2 {
            let verified = try DossierBinary.run(["verify", "--library", "L"], in: folder.url)
            #expect(verified.status == 1)
            #expect(verified.standardOutput.hasPrefix("unindexed  pets/leo/photos/x: it holds another Dossier library, passed over "
                + "(none of its files is this library's): move it out of this library's folders\n"
                + "Checked 1 file "), "\(verified.standardOutput)")
            #expect(!verified.standardOutput.contains("damaged"))
        }
        // The inner library is whole, and still a library of its own.
        #expect(try DossierBinary.run(["verify", "--library", "L/pets/leo/photos/x"], in: folder.url).status == 0)
    }

    @Test("an import whose paths are missing or hold nothing makes no library: the path named, status 1 or 0, no folder left behind",
          arguments: [("/nonexistent/dir", Int32(1)), ("empty", Int32(0))])
    func aTypoMakesNoLibrary(path: String, status: Int32) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("empty"), withIntermediateDirectories: true)
        let imported = try DossierBinary.run(["import", path, "--library", "NEW"], in: folder.url)
        #expect(imported.status == status, "\(imported.standardError)")
        if status == 1 {
            #expect(imported.standardOutput.hasPrefix("failed /nonexistent/dir: "), "\(imported.standardOutput)")
        }
        #expect(!imported.standardError.contains("created library"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("NEW")))
        // A file to read does make it.
        try folder.write(SafetyFixtures.jpeg(seed: 11), to: "dump/pets/rex/a.jpg")
        let made = try DossierBinary.run(["import", "--create", path, "dump", "--library", "NEW"], in: folder.url)
        #expect(made.standardError.contains("dossier: created library at \(folder.path("NEW"))"))
        #expect(folder.files(under: "NEW/pets/rex/photos").count == 1)
    }

    @Test("an import that finds nothing an importer reads (a link it does not follow, a file of no kind it knows) makes no library, and says each as ever",
          arguments: [("onlylinks", Int32(3), "link-not-followed"), ("unknown/blob.bin", Int32(0), nil)])
    func nothingReadableMakesNoLibrary(path: String, status: Int32, errorCode: String?) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("onlylinks"), withIntermediateDirectories: true)
        let outside = try folder.write("2024-03-01 Rex weight 400 g\n", to: "elsewhere/weights.txt")
        #expect(symlink(outside, folder.path("onlylinks/x")) == 0)
        try folder.write((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }, to: "unknown/blob.bin")

        let imported = try DossierBinary.run(["import", path, "--library", "NEW", "--json"], in: folder.url)

        #expect(imported.status == status, "\(imported.standardOutput)\(imported.standardError)")
        #expect(imported.outcomes.count == 1, "\(imported.standardOutput)")
        #expect(imported.outcomes.first?["status"] as? String == "skipped")
        #expect(imported.outcomes.first?["errorCode"] as? String == errorCode)
        #expect(!imported.standardError.contains("created library"), "\(imported.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("NEW")))
        // A file an importer reads beside them does make it.
        try folder.write(SafetyFixtures.jpeg(seed: 12), to: "onlylinks/pets/rex/a.jpg")
        let made = try DossierBinary.run(["import", "--create", path, "onlylinks", "--library", "NEW"], in: folder.url)
        #expect(made.standardError.contains("dossier: created library at \(folder.path("NEW"))"), "\(made.standardError)")
        #expect(folder.files(under: "NEW/pets/rex/photos").count == 1)
    }

    @Test("a missing index is rebuilt from the folders before anything is filed: photos dated by their file's time are not filed twice")
    func aMissingIndexIsRebuiltBeforeFiling() throws {
        let folder = try TemporaryFolder()
        // No date in their EXIF: they are named by their files' modification time.
        for seed in 0..<4 { try folder.write(SafetyFixtures.jpeg(seed: seed), to: "dump/pets/rex/IMG_\(seed).jpg") }
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url).status == 0)
        #expect(folder.files(under: "Library/pets/rex/photos").count == 4)
        try FileManager.default.removeItem(atPath: folder.path("Library/.dossier/index.sqlite"))
        // A backup restored, a copy made: the same photos with other modification times.
        for seed in 0..<4 {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000 + Double(seed))],
                                                  ofItemAtPath: folder.path("dump/pets/rex/IMG_\(seed).jpg"))
        }
        let again = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(again.status == 0)
        #expect(again.summary?["duplicate"] as? Int == 4, "\(again.standardOutput)")
        #expect(folder.files(under: "Library/pets/rex/photos").count == 4)
        #expect(again.standardError.contains("its index was missing; rebuilt it from the folders before filing anything "
            + "(4 photos, 0 year files of records)"), "\(again.standardError)")
        #expect(try LibraryIdentitySafetyTests.indexID(folder) == (try LibraryIdentitySafetyTests.identity(folder)).id)
    }

    @Test("an index made for another library is never used: it is moved aside and this library's own is rebuilt")
    func anotherLibrarysIndexIsMovedAside() throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 1), to: "one/pets/rex/a.jpg")
        try folder.write(SafetyFixtures.jpeg(seed: 2), to: "two/pets/rex/b.jpg")
        #expect(try DossierBinary.run(["import", "--create", "one", "--library", "A"], in: folder.url).status == 0)
        #expect(try DossierBinary.run(["import", "--create", "two", "--library", "B"], in: folder.url).status == 0)
        let b = try LibraryIdentitySafetyTests.identity(folder, "B")
        let aIndex = try #require(SafetyFixtures.contents(folder.path("A/.dossier/index.sqlite")))
        try Data(aIndex).write(to: folder.url.appendingPathComponent("B/.dossier/index.sqlite"))

        // Read-only: refused, with what to do.
        let listed = try DossierBinary.run(["problems", "--library", "B"], in: folder.url)
        #expect(listed.status == 2)
        #expect(listed.standardError.contains("was made for another library"), "\(listed.standardError)")
        #expect(listed.standardError.contains("run `dossier index rebuild`"))

        let imported = try DossierBinary.run(["import", "--create", "two", "--library", "B", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.contains("its index was made for another library"), "\(imported.standardError)")
        #expect(imported.summary?["duplicate"] as? Int == 1)
        #expect(try LibraryIdentitySafetyTests.indexID(folder, "B") == b.id)
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path("B/.dossier"))
            .filter { $0.hasPrefix("index.sqlite.other-library-") }
        #expect(aside.count == 1)
        #expect(SafetyFixtures.contents(folder.path("B/.dossier/\(aside.first ?? "")")) == aIndex)
        #expect(folder.files(under: "B/pets/rex/photos").count == 1)
    }

    @Test("`import --move` of the library seen through a bind mount removes none of the library's files",
          .enabled(if: LibraryIdentitySafetyTests.canBindMount, "needs root and mount --bind (CI has both)"))
    func aBindMountDoesNotHideTheLibrary() throws {
        let folder = try TemporaryFolder()
        let filed = try LibrarySafetyTests.importedDump(in: folder)
        try folder.write("2024-03-01 leo weight 45 g\n", to: "dump/pets/leo/log.txt")
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url).status == 0)
        let before = folder.files(under: "Library")
        try LibraryIdentitySafetyTests.bindMount(folder.path("Library"), at: folder.path("view"))
        defer { umount2(folder.path("view"), Int32(MNT_DETACH)) }

        // The named folder lies in the library, by device and inode: refused.
        let named = try DossierBinary.run(["import", "--create", "view/pets", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(named.status == 1)
        #expect((named.outcomes.first?["error"] as? String)?.contains("it is inside the library") == true, "\(named.standardOutput)")
        // Met while walking a folder that holds it: passed over.
        let walked = try DossierBinary.run(["import", "--create", ".", "--library", "Library", "--move", "--json"], in: folder.url)
        let passed = walked.outcomes.filter { ($0["error"] as? String)?.contains("Dossier never takes its own library apart") == true }
        #expect(passed.compactMap { $0["source"] as? String }.sorted() == [folder.path("Library"), folder.path("view")],
                "\(walked.standardOutput)")
        #expect(LibrarySafetyTests.filedPhotos(in: folder) == filed)
        #expect(folder.files(under: "Library") == before)
    }

    @Test("another Dossier library met while walking is passed over and said, not taken apart")
    func anotherLibraryIsNotTakenApart() throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 5), to: "old/pets/rex/a.jpg")
        try folder.write("2024-03-01 rex weight 45 g\n", to: "old/pets/rex/log.txt")
        #expect(try DossierBinary.run(["import", "--create", "old", "--library", "dump/OldLibrary"], in: folder.url).status == 0)
        try folder.write(SafetyFixtures.jpeg(seed: 6), to: "dump/pets/rex/b.jpg")
        let oldFiles = folder.files(under: "dump/OldLibrary")

        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardOutput)")
        #expect(imported.summary?["imported"] as? Int == 1)
        #expect(imported.summary?["skipped"] as? Int == 1)
        let skipped = try #require(imported.outcomes.first { $0["status"] as? String == "skipped" })
        #expect(skipped["source"] as? String == folder.path("dump/OldLibrary"))
        #expect((skipped["error"] as? String)?.hasSuffix("it is a Dossier library; Dossier never takes a library apart "
            + "(to import from it, name a folder inside it)") == true)
        #expect(folder.files(under: "dump/OldLibrary") == oldFiles)
        #expect(folder.files(under: "Library/pets/rex/photos").count == 1)
        #expect(!folder.files(under: "Library").contains { $0.hasPrefix("sources/") })
    }

    @Test("another library met while walking is said with its reason in text mode too, not only in --json")
    func anotherLibraryIsSaidInTextMode() throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 5), to: "old/pets/rex/a.jpg")
        #expect(try DossierBinary.run(["import", "--create", "old", "--library", "dump/OldLibrary"], in: folder.url).status == 0)
        try folder.write(SafetyFixtures.jpeg(seed: 6), to: "dump/pets/rex/b.jpg")
        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.hasPrefix("skipped \(folder.path("dump/OldLibrary")): it is a Dossier library; Dossier never "
            + "takes a library apart (to import from it, name a folder inside it)\n"), "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("2 sources: 1 imported, 0 duplicate, 0 unassigned, 1 skipped, 0 failed"))
    }
}
