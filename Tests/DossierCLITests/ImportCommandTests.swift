import DossierCore
import DossierPhotos
import Foundation
import DossierTestSupport
import Testing

@Suite("dossier import, end to end through the binary")
struct ImportCommandTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: DossierBinary.packageRoot.appendingPathComponent("Samples"),
                                         to: folder.url.appendingPathComponent("Samples"))
    }

    /// The upright size of every sample photo, by source.
    static let uprightSizes: [String: (Int, Int)] = [
        "pets/leo/IMG_0001.JPG": (640, 480), "pets/leo/IMG_0002.JPG": (640, 480),
        "pets/leo/IMG_0003.JPG": (630, 470), "pets/leo/IMG_0004.JPG": (480, 640),
        "pets/coco/P1010001.JPG": (640, 480), "pets/coco/P1010002.JPG": (601, 401),
        "pets/coco/screenshot.png": (320, 240), "children/mina/photo-2.jpg": (640, 480),
        "children/mina/photo-4.jpg": (640, 480), "children/mina/photo-7.jpg": (500, 375),
        "children/mina/drawing.png": (300, 200), "inbox/leo/IMG_0100.JPG": (320, 240),
    ]

    func uprightSize(of path: String) throws -> (Int, Int) {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        if path.hasSuffix(".png") {
            let inspection = try PNGCodec.inspect(bytes)
            return (inspection.width, inspection.height)
        }
        let info = try JPEGCodec.info(bytes)
        return (info.width, info.height)
    }

    @Test("Copies of a photo worked on at once (--jobs 8) are filed once: the rest are its duplicates, and --move removes them all")
    func copiesWorkedOnAtOnceAreFiledOnce() throws {
        // A sideways sample (a turn takes long enough for the copies to be filing at once), four
        // copies as it is (one name, from its EXIF date) and four without its EXIF, each with its
        // own time (each would name a file of its own).
        let sample = Array(try Data(contentsOf: folder.url.appendingPathComponent("Samples/pets/leo/IMG_0004.JPG")))
        let undated = try SidecarImportTests.withoutExif("pets/leo/IMG_0004.JPG")
        for copy in 1...8 {
            let path = try folder.write(copy <= 4 ? sample : undated, to: "dump/pets/leo/copy-\(copy).jpg")
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000 + Double(copy) * 86_400)],
                                                  ofItemAtPath: path)
        }
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--jobs", "8", "--move"],
                                           in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let statuses = result.outcomes.compactMap { $0["status"] as? String }
        #expect(statuses.filter { $0 == "imported" }.count == 2, "\(statuses)")
        #expect(statuses.filter { $0 == "duplicate" }.count == 6, "\(statuses)")
        #expect(Set(result.outcomes.compactMap { $0["destination"] as? String }).count == 2)
        #expect(folder.files(under: "Library/pets/leo/photos").count == 2, "\(folder.files(under: "Library/pets/leo/photos"))")
        #expect(folder.files(under: "dump").isEmpty)
    }

    /// The samples as scripts/demo imports them, in one go: the property lists (profiles) are
    /// imported first, so the logs know the subjects' names.
    @discardableResult
    func importSamples() throws -> DossierBinary.Result {
        try DossierBinary.run(["import", "--create", "Samples", "--library", "Library", "--json"], in: folder.url)
    }

    @Test("A folder's walk passes over the names the daemon does: files still being written, a tool's own files and folders")
    func importPassesOverWhatTheDaemonDoes() throws {
        let log = "2024-05-01 fed 3 crickets\n"
        for name in ["pets/leo/feeding.txt", "pets/leo/IMG_1.txt.part", "pets/leo/notes.txt.crdownload", "pets/leo/~$notes.txt",
                     "pets/leo/@eaDir/feeding.txt", "pets/leo/.stversions/feeding.txt"] {
            try folder.write(log, to: "dump/\(name)")
        }
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let taken = result.outcomes.filter { $0["status"] as? String != "skipped" }
        #expect(taken.compactMap { $0["source"] as? String } == [folder.path("dump/pets/leo/feeding.txt")])
        // Each passed over is said, with why; a folder once, never walked.
        let passedOver = Dictionary(uniqueKeysWithValues: result.outcomes.filter { $0["status"] as? String == "skipped" }.map {
            (String(($0["source"] as? String ?? "").dropFirst(folder.path("dump/pets/leo").count + 1)), $0["errorCode"] as? String ?? "")
        })
        #expect(passedOver == [".stversions": "hidden", "@eaDir": "hidden", "IMG_1.txt.part": "being-written",
                               "notes.txt.crdownload": "being-written", "~$notes.txt": "being-written"])
        // Named on the command line, a file is taken whatever its name.
        let named = try DossierBinary.run(["import", "--create", "dump/pets/leo/IMG_1.txt.part", "--library", "Library", "--json"], in: folder.url)
        #expect(named.outcomes.first?["status"] as? String == "duplicate", "\(named.standardOutput)")
    }

    @Test("Importing the samples files every photo upright under its subject, and every log, CSV and plist")
    func importsTheSamples() throws {
        let result = try importSamples()
        #expect(result.status == 3, "\(result.standardError)")
        let summary = try #require(result.summary)
        #expect(summary["imported"] as? Int == 19)
        #expect(summary["failed"] as? Int == 0)
        var records: [String: Int] = [:]
        for outcome in result.outcomes {
            let source = try #require(outcome["source"] as? String)
            let relative = String(source.dropFirst(folder.path("Samples").count + 1))
            if let counts = outcome["records"] as? [String: Any] { records[relative] = counts["added"] as? Int }
            guard let expected = ImportCommandTests.uprightSizes[relative] else { continue }
            #expect(outcome["status"] as? String == "imported", "\(relative)")
            let destination = try #require(outcome["destination"] as? String)
            let expectedSubject = relative.hasPrefix("inbox/leo") ? "pets/leo" : relative.split(separator: "/").prefix(2).joined(separator: "/")
            #expect(outcome["subject"] as? String == expectedSubject)
            #expect(destination.hasPrefix(folder.path("Library/\(expectedSubject)/photos/")))
            let size = try uprightSize(of: destination)
            #expect(size == expected, "\(relative)")
        }
        #expect(records == ["pets/leo/care-log-2023.txt": 8, "logs/shared-notes.txt": 5, "children/mina/feeding.csv": 3])
        let shared = try #require(result.outcomes.first { ($0["source"] as? String)?.hasSuffix("shared-notes.txt") == true })
        #expect(shared["subjects"] as? [String] == ["pets/coco", "pets/leo"])
        #expect((shared["problems"] as? [String])?.last == "\(folder.path("Samples/logs/shared-notes.txt")): line 8: unknown name '레우' (did you mean 레오?)")
        let leo = folder.files(under: "Library/pets/leo/photos")
        #expect(leo.count == 5)
        #expect(leo.contains { $0.hasPrefix("2023/2023-05-03_184012_") && $0.hasSuffix(".jpg") })
        #expect(folder.files(under: "Library/pets/leo/records") == ["2023.jsonl", "2024.jsonl"])
        #expect(FileManager.default.fileExists(atPath: folder.path("Library/config/species.json")))
        #expect(FileManager.default.fileExists(atPath: folder.path("Samples/pets/leo/IMG_0002.JPG")))
    }

    @Test("A second import of the same samples settles every source as a duplicate")
    func reimportIsAllDuplicates() throws {
        try importSamples()
        let before = folder.files(under: "Library")
        let result = try DossierBinary.run(["import", "--create", "Samples", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.summary?["duplicate"] as? Int == 19)
        #expect(result.summary?["imported"] as? Int == 0)
        #expect(folder.files(under: "Library") == before)
    }

    @Test("A dry run lists each source with its destination and creates nothing")
    func dryRunCreatesNothing() throws {
        let result = try DossierBinary.run(["import", "--create", "Samples", "--dry-run"], in: folder.url,
                                           environment: ["DOSSIER_LIBRARY": folder.path("Elsewhere")])
        #expect(result.status == 3)
        let wouldFile = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("would file ") }
        #expect(wouldFile.count == 18)
        #expect(wouldFile.allSatisfy { $0.contains(" -> \(folder.path("Elsewhere"))/") })
        #expect(wouldFile.contains { $0.hasSuffix("care-log-2023.txt -> \(folder.path("Elsewhere"))/pets/leo/records/2023.jsonl (8 new records)") })
        // Without the profiles in the library, the log that names its animals knows none of them.
        #expect(result.standardOutput.contains("Dry run (nothing written): 19 sources: 18 would import, 0 duplicate, 1 unassigned, 0 skipped, 0 failed; "
                                               + "1 source needs a look (problems, no subject, or text that gave no records: see above) in "))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Elsewhere")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library")))
    }

    @Test("--move removes each filed source and leaves the rest")
    func moveRemovesFiledSources() throws {
        let result = try DossierBinary.run(["import", "--create", "Samples/pets/coco", "Samples/inbox", "--move", "--json"], in: folder.url)
        #expect(result.status == 3)
        #expect(result.outcomes.filter { $0["sourceRemoved"] as? Bool == true }.count == 3)
        #expect(folder.files(under: "Samples/pets/coco").isEmpty)
        // No pets/leo in the library or in this import: inbox/leo stays unassigned, and stays put.
        #expect(folder.files(under: "Samples/inbox") == ["leo/IMG_0100.JPG"])
        #expect(folder.files(under: "Library/pets/coco/photos").count == 3)
    }

    @Test("A bad file is reported with its path and reason, the others import, and the exit status is 1")
    func badFilesFailTheExitStatus() throws {
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("Samples/pets/leo/IMG_0001.JPG"))))
        // Cut inside its EXIF segment: no picture to show (one cut later still decodes, and is filed damaged).
        try folder.write(Array(good.prefix(100)), to: "dump/pets/rex/broken.jpg")
        try folder.write(good, to: "dump/pets/rex/good.jpg")
        let result = try DossierBinary.run(["import", "--create", "dump"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardOutput.hasPrefix(
            "failed \(folder.path("dump/pets/rex/broken.jpg")): JPEG data is corrupt or unsupported: Premature end of JPEG file\n"
                + "2 sources: 1 imported, 0 duplicate, 0 unassigned, 0 skipped, 1 failed in "), "\(result.standardOutput)")
        #expect(folder.files(under: "Library/pets/rex/photos").count == 1)
    }

    @Test("A JPEG whose data ends early but decodes is filed byte for byte, reported damaged in --json and on the terminal")
    func damagedButReadableJPEG() throws {
        let sideways = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("Samples/pets/leo/IMG_0002.JPG"))))
        let cut = Array(sideways.prefix(sideways.count * 2 / 3))
        try folder.write(cut, to: "dump/pets/rex/IMG_0002.JPG")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let outcome = try #require(result.outcomes.first)
        #expect(outcome["status"] as? String == "imported")
        #expect(outcome["damaged"] as? Bool == true)
        #expect((outcome["warnings"] as? [String])?.last == "damaged (Premature end of JPEG file), but it decodes: filed byte for "
            + "byte as it is, not turned (its EXIF Orientation 6 kept, so viewers that honour it show it upright)")
        let filed = try #require(outcome["destination"] as? String)
        #expect(try Data(contentsOf: URL(fileURLWithPath: filed)) == Data(cut))
        // On the terminal it gets a line, without --verbose.
        try folder.write(cut + [0], to: "again/pets/rex/IMG_0002.JPG")
        let terminal = try DossierBinary.run(["import", "--create", "again", "--library", "Library"], in: folder.url)
        #expect(terminal.standardOutput.contains("(damaged, filed as it is: damaged (Premature end of JPEG file)"), "\(terminal.standardOutput)")
    }

    @Test("A sideways JPEG with bytes zeroed in the middle of its scan is filed as it is, damaged, never turned")
    func damagedScanIsNotTurned() throws {
        var sideways = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("Samples/pets/leo/IMG_0002.JPG"))))
        for index in 3000..<3400 { sideways[index] = 0 }
        try folder.write(sideways, to: "dump/pets/rex/IMG_0050.JPG")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json", "--move"], in: folder.url)
        let outcome = try #require(result.outcomes.first)
        #expect(outcome["damaged"] as? Bool == true, "\(outcome)")
        let filed = try #require(outcome["destination"] as? String)
        #expect(try Data(contentsOf: URL(fileURLWithPath: filed)) == Data(sideways))
    }

    @Test("A photo with no subject is reported unassigned and nothing is written for it")
    func unassignedPhotos() throws {
        try FileManager.default.copyItem(atPath: folder.path("Samples/pets/leo/IMG_0001.JPG"), toPath: folder.path("loose.jpg"))
        let result = try DossierBinary.run(["import", "--create", "loose.jpg", "--json"], in: folder.url)
        #expect(result.status == 3)
        #expect(result.outcomes.first?["status"] as? String == "unassigned")
        #expect(result.outcomes.first?["error"] as? String == "\(folder.path("loose.jpg")): no subject: give --subject KIND/ID, "
            + "or put the file under a pets/<id> or children/<id> folder")
        // Only the settings the library was made with: its time zone.
        #expect(folder.files(under: "Library") == ["config/library.json"])
    }

    @Test("An invalid --subject is refused with what a subject and an id may be")
    func invalidSubjectIsRefused() throws {
        let escape = try DossierBinary.run(["import", "Samples", "--subject", "pets/../../etc"], in: folder.url)
        #expect(escape.status == 64)
        #expect(escape.standardError.hasPrefix("Error: --subject: invalid subject 'pets/../../etc': expected KIND/ID where "
            + "KIND is 'pets' or 'children' and ID is 1 to 64 characters of lowercase letters, digits, '-' and '_'\n"))
        let dots = try DossierBinary.run(["import", "Samples", "--subject", "pets/.."], in: folder.url)
        #expect(dots.status == 64)
        #expect(dots.standardError.hasPrefix("Error: --subject: invalid subject id '..': an id is 1 to 64 characters of "
            + "lowercase letters, digits, '-' and '_'\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library")))
    }

    @Test("--subject files everything under that subject")
    func subjectOptionWins() throws {
        let result = try DossierBinary.run(["import", "Samples/children", "--subject", "pets/leo", "--create", "--json"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.outcomes.allSatisfy { $0["subject"] as? String == "pets/leo" })
        // mina's three photos, and her Live Photo: the HEIC, its JPEG rendition and its movie.
        #expect(folder.files(under: "Library/pets/leo/photos").count == 7)
    }

    @Test("An import into a library another import holds fails at once with --no-wait, naming the holder")
    func busyLibrary() throws {
        // Hold the lock the way a running import does, from this process.
        try FileManager.default.createDirectory(atPath: folder.path("Library/.dossier/staging"), withIntermediateDirectories: true)
        let lock = try LibraryLock.acquire(LibraryLayout(root: folder.url.appendingPathComponent("Library")), wait: false)
        let result = try DossierBinary.run(["import", "--create", "Samples", "--library", "Library", "--no-wait"], in: folder.url)
        withExtendedLifetime(lock) {}
        #expect(result.status == 2)
        #expect(result.standardError == "dossier: the library \(folder.path("Library")) is busy: another dossier import "
            + "is running (pid \(getpid())); try again when it has finished, or leave out --no-wait to wait for it\n")
        #expect(folder.files(under: "Library").isEmpty)
    }

    @Test("An import into a library another import holds waits for it, says so, then runs")
    func waitsForABusyLibrary() async throws {
        try FileManager.default.createDirectory(atPath: folder.path("Library/.dossier/staging"), withIntermediateDirectories: true)
        var lock: LibraryLock? = try LibraryLock.acquire(LibraryLayout(root: folder.url.appendingPathComponent("Library")), wait: false)
        let process = DossierBinary.process(["import", "--create", "Samples", "--library", "Library"], in: folder.url)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Time for an import that did not wait to file something: an absence, which no condition shows.
        try await Task.sleep(for: .milliseconds(700))
        #expect(process.isRunning)
        #expect(folder.files(under: "Library").isEmpty)
        withExtendedLifetime(lock) { lock = nil }
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 3)
        #expect(message.hasPrefix("dossier: the library is in use (pid \(getpid())); waiting for it...\n"))
        #expect(folder.files(under: "Library/pets").count + folder.files(under: "Library/children").count > 12)
    }

    @Test("A file named twice is imported once")
    func namedTwiceImportsOnce() throws {
        let result = try DossierBinary.run(["import", "--create", "Samples/pets/leo", "Samples/pets/leo/IMG_0001.JPG", "--json"], in: folder.url)
        #expect(result.outcomes.count == 5)
        #expect(result.summary?["imported"] as? Int == 5)
    }

    @Test("dossier plugins lists each plugin with what it registers")
    func pluginsAreListed() throws {
        let result = try DossierBinary.run(["plugins"], in: folder.url)
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.filter { !$0.hasPrefix(" ") }.map { String($0.prefix { $0 != ":" }) } == ["core", "photos", "records"])
        #expect(lines.filter { $0.hasPrefix("  importer") }.map { $0.split(separator: " ")[1] }
            == ["jpeg:", "png:", "heif:", "video:", "raw:", "image:", "video-other:", "audio:", "sidecar:", "plist:", "csv:", "notepad:"])
        #expect(lines.filter { $0.hasPrefix("  transform") }.map { $0.split(separator: " ")[1] }
            == ["orient", "rendition", "classify", "units", "species", "derive"])
        #expect(lines.filter { $0.hasPrefix("  router") }.map { $0.split(separator: " ")[1] }
            == ["requested-subject:", "subject-folder:", "existing-subject:", "subject-name:"])
        #expect(lines.contains("  importer   jpeg: JPEG photos (recognised by their FF D8 FF start); EXIF and XMP from APP1 segments, IPTC from APP13"))
        #expect(lines.contains("  format     tif: TIFF, filed as it is with an upright rendition beside it"))
        #expect(lines.contains("  format     dng: DNG raw, filed as it is with a rendition of its preview, or beside its camera's JPEG"))
    }
}

@Suite("dossier index rebuild")
struct IndexRebuildTests {
    @Test("A lost index is rebuilt from the folders, and a re-import then files nothing twice")
    func rebuildsALostIndex() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: DossierBinary.packageRoot.appendingPathComponent("Samples"),
                                         to: folder.url.appendingPathComponent("Samples"))
        try DossierBinary.run(["import", "--create", "Samples", "--library", "Library"], in: folder.url)
        let filed = folder.files(under: "Library")
        try FileManager.default.removeItem(atPath: folder.path("Library/.dossier/index.sqlite"))
        let rebuild = try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url)
        #expect(rebuild.status == 0)
        #expect(rebuild.standardOutput == "Indexed 14 photos and 4 year files of records in \(folder.path("Library"))\n")
        let again = try DossierBinary.run(["import", "--create", "Samples", "--library", "Library", "--json"], in: folder.url)
        #expect(again.summary?["duplicate"] as? Int == 19)
        #expect(folder.files(under: "Library") == filed)
    }

    @Test("Rebuilding a folder that is not a library is refused")
    func refusesNonLibraries() throws {
        let folder = try TemporaryFolder()
        let result = try DossierBinary.run(["index", "rebuild", "--library", "Nowhere"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("dossier: there is no library at \(folder.path("Nowhere"))"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Nowhere")))
    }
}
