import DossierCore
import Foundation
import DossierTestSupport
import Testing

/// What a user is told when something is off: one clear line, the right status, nothing silent.
@Suite("Commands say what is wrong, once, and never act on a guess")
struct CommandSafetyTests {
    @Test("subjects list, today, records and problems on a folder that holds no library say so, with status 2",
          arguments: [["subjects", "list"], ["today"], ["problems"], ["records", "pets/leo"]])
    func aMissingLibraryIsNamed(command: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try DossierBinary.run(command + ["--library", "Nowhere"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "dossier: there is no library at \(folder.path("Nowhere")) (if it is on a drive, is the drive mounted?); "
            + "make one with `dossier init \(folder.path("Nowhere"))`, or give --library or DOSSIER_LIBRARY\n")
    }

    @Test("records --kind with a kind the subject has no records of says which kinds it has, nearest first")
    func aMisspeltKindIsNamed() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "레오", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)
        try folder.write("2024-03-02 체중 45g\n2024-03-03 귀뚜라미 5마리\n2024-03-04 탈피\n", to: "leo.txt")
        let imported = try DossierBinary.run(["import", "leo.txt", "--subject", "pets/leo", "--library", "Library"], in: folder.url)
        #expect(imported.status == 0)

        let result = try DossierBinary.run(["records", "pets/leo", "--kind", "wieght", "--library", "Library"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError
            == "dossier: pets/leo has no records of kind 'wieght' (did you mean weight?); its kinds: feeding, shedding, weight\n")
    }

    @Test("A --subject that names no subject is refused with the closest ids, unless --create is given")
    func aMisspeltSubjectIsRefused() throws {
        let folder = try TemporaryFolder()
        let added = try DossierBinary.run(["subjects", "add", "pets/leo", "--name", "레오", "--library", "Library"], in: folder.url)
        #expect(added.status == 0)
        try folder.write(SafetyFixtures.jpeg(seed: 7), to: "dump/IMG_0007.JPG")

        let refused = try DossierBinary.run(["import", "dump", "--subject", "pets/lo", "--library", "Library"], in: folder.url)
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("--subject: there is no subject pets/lo in \(folder.path("Library")) "
            + "(did you mean pets/leo?); give --create to make it, or add it first with `dossier subjects add`."))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/lo")))

        let created = try DossierBinary.run(["import", "dump", "--subject", "pets/lo", "--create", "--library", "Library", "--json"],
                                            in: folder.url)
        #expect(created.status == 0)
        #expect(created.outcomes.first?["subject"] as? String == "pets/lo")
    }

    @Test("A dry run says what it would import, and writes nothing")
    func aDryRunSaysWould() throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 8), to: "dump/pets/leo/IMG_0008.JPG")
        let result = try DossierBinary.run(["import", "--create", "dump", "--dry-run", "--library", "Library"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("would file \(folder.path("dump/pets/leo/IMG_0008.JPG")) -> "))
        #expect(result.standardOutput.contains("Dry run (nothing written): 1 source: 1 would import, 0 duplicate"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library")))
    }

    @Test("A dry run says of the second of two sources of the same bytes what the import says: a duplicate, photos and logs alike")
    func aDryRunCountsDuplicatesAsTheImportDoes() throws {
        let folder = try TemporaryFolder()
        let photo = SafetyFixtures.jpeg(seed: 12)
        try folder.write(photo, to: "dump/pets/leo/IMG_0012.JPG")
        try folder.write(photo, to: "dump/pets/leo/copy of IMG_0012.JPG")
        try folder.write("2024-03-01 leo weight 45 g\n2024-03-08 leo weight 46 g\n", to: "dump/pets/leo/weights.txt")
        try folder.write("2024-03-01 leo weight 45 g\n2024-03-08 leo weight 46 g\n", to: "dump/pets/leo/weights (1).txt")
        var said: [[String: String]] = []
        for dryRun in [true, false] {
            let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"] + (dryRun ? ["--dry-run"] : []),
                                               in: folder.url)
            #expect(result.status == 0, "\(result.standardOutput)")
            #expect(result.summary?["imported"] as? Int == 2, "dry run \(dryRun): \(result.standardOutput)")
            #expect(result.summary?["duplicate"] as? Int == 2, "dry run \(dryRun): \(result.standardOutput)")
            // Of each pair one is filed and the other is its duplicate, with the same destination.
            for pair in [["IMG_0012.JPG", "copy of IMG_0012.JPG"], ["weights.txt", "weights (1).txt"]] {
                let outcomes = pair.compactMap { name in result.outcomes.first { $0["source"] as? String == folder.path("dump/pets/leo/\(name)") } }
                #expect(Set(outcomes.compactMap { $0["status"] as? String }) == ["imported", "duplicate"], "\(outcomes)")
                #expect(Set(outcomes.compactMap { $0["destination"] as? String }).count == 1, "\(outcomes)")
            }
            said.append(Dictionary(uniqueKeysWithValues: result.outcomes.compactMap { outcome in
                (outcome["destination"] as? String).map { ((outcome["source"] as? String) ?? "", $0) }
            }))
        }
        // The dry run named the places the import then filed into.
        #expect(Set(said[0].values) == Set(said[1].values))
    }

    @Test("Every source's line goes to standard output, a failed one's, an unassigned one's and one with problems too, before the summary; standard error holds none")
    func everyOutcomeLineGoesToStandardOutput() throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 13), to: "dump/pets/leo/good.jpg")
        try folder.write(SafetyFixtures.headerCut(SafetyFixtures.jpeg(seed: 14)), to: "dump/pets/leo/cut.jpg")
        try folder.write(SafetyFixtures.jpeg(seed: 15), to: "dump/loose.jpg")
        try folder.write("2024-03-01 leo weight 45 g\n2024-02-30 leo weight 46 g\n", to: "dump/pets/leo/log.txt")
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
        #expect(result.status == 1, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let failed = try #require(lines.firstIndex { $0.hasPrefix("failed \(folder.path("dump/pets/leo/cut.jpg"))") }, "\(result.standardOutput)")
        let unassigned = try #require(lines.firstIndex { $0.hasPrefix("unassigned \(folder.path("dump/loose.jpg"))") }, "\(result.standardOutput)")
        let log = try #require(lines.firstIndex { $0.hasPrefix("imported \(folder.path("dump/pets/leo/log.txt")) -> ") }, "\(result.standardOutput)")
        #expect(lines[log + 2] == "  problem: \(folder.path("dump/pets/leo/log.txt")): line 2: impossible date '2024-02-30': no such day",
                "\(result.standardOutput)")
        let summary = try #require(lines.firstIndex { $0.hasPrefix("4 sources: 2 imported, 0 duplicate, 1 unassigned, 0 skipped, 1 failed") },
                                   "\(result.standardOutput)")
        #expect([failed, unassigned, log].allSatisfy { $0 < summary })
        // Only what is about the run itself: the library made.
        #expect(result.standardError == "dossier: created library at \(folder.path("Library")) (id "
            + "\(try LibraryIdentitySafetyTests.identity(folder).shortID))\n", "\(result.standardError)")
    }

    @Test("A damaged index makes commands say so in one line (no SQL); index rebuild moves it aside and rebuilds",
          arguments: ["garbage", "truncated"])
    func aDamagedIndexIsRebuilt(damage: String) throws {
        let folder = try TemporaryFolder()
        try folder.write(SafetyFixtures.jpeg(seed: 9), to: "dump/pets/leo/IMG_0009.JPG")
        try folder.write("2024-03-02 체중 45g\n", to: "dump/pets/leo/log.txt")
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url).status == 0)
        let index = folder.path("Library/.dossier/index.sqlite")
        let original = try #require(SafetyFixtures.contents(index))
        let damaged: [UInt8] = damage == "garbage" ? Array(repeating: 0x5A, count: 8192) : Array(original.prefix(1000))
        try Data(damaged).write(to: URL(fileURLWithPath: index))

        let failing = try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url)
        #expect(failing.status == 2)
        #expect(failing.standardError.split(separator: "\n").count == 1, "\(failing.standardError)")
        #expect(failing.standardError.contains("run `dossier index rebuild` to move it aside and rebuild it from the folders"))
        #expect(!failing.standardError.contains("SELECT") && !failing.standardError.contains("CREATE"))

        let rebuilt = try DossierBinary.run(["index", "rebuild", "--library", "Library"], in: folder.url)
        #expect(rebuilt.status == 0, "\(rebuilt.standardError)")
        #expect(rebuilt.standardOutput.hasPrefix("The index was damaged: moved aside to \(index).damaged-"))
        #expect(rebuilt.standardOutput.contains("Indexed 1 photo and 1 year file of records"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier"))
            .filter { $0.hasPrefix("index.sqlite.damaged-") && !$0.hasSuffix("-journal") }
        #expect(aside.count == 1)
        #expect(SafetyFixtures.contents(folder.path("Library/.dossier/\(aside[0])")) == damaged)

        let again = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(again.status == 0)
        #expect(again.summary?["duplicate"] as? Int == 2)
    }

    @Test("A library that stops taking writes in the middle of an import stops it with one line and status 2",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"),
                   "making folders immutable needs root and chattr (CI has both)"))
    func anUnwritableLibraryStopsTheImport() throws {
        let folder = try TemporaryFolder()
        func chattr(_ arguments: [String]) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            process.arguments = arguments
            try? process.run()
            process.waitUntilExit()
        }
        defer { chattr(["-R", "-i", folder.path("Library")]) }
        #expect(try DossierBinary.run(["init", "Library"], in: folder.url).status == 0)
        for index in 0..<120 {
            try folder.write(SafetyFixtures.jpeg(width: 640, height: 469, orientation: 6, seed: index), to: "dump/pets/rex/IMG_\(index).JPG")
        }
        let process = DossierBinary.process(["import", "--create", "dump", "--library", "Library", "--jobs", "2", "--move"], in: folder.url)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        while !FileManager.default.fileExists(atPath: folder.path("Library/pets/rex/photos")) && process.isRunning { usleep(2_000) }
        // Immutable: not even root may write there now, as on a library whose disk went read-only.
        chattr(["-R", "+i", folder.path("Library")])
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        let lines = errorText.split(separator: "\n")
        #expect(lines.count == 1, "\(errorText)")
        #expect(lines.first?.hasPrefix("dossier: ") == true)
        // Every photo is in the dump still or filed whole (removed only then).
        let filed = folder.files(under: "Library/pets/rex/photos").count
        #expect(folder.files(under: "dump").count + filed >= 120)
    }
}
