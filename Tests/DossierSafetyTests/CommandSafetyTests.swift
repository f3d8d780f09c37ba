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
