import DossierCore
import DossierPhotos
import Foundation
import DossierTestSupport
import Testing

/// `--move` when the world goes wrong: the import killed at any moment, the disk full.
@Suite("--move loses nothing when killed or out of space")
struct MoveUnderStressSafetyTests {
    /// Upright photos are filed byte for byte, so "its bytes are somewhere" can be checked exactly.
    static func makeDump(in folder: TemporaryFolder, photos: Int, size: (Int, Int) = (320, 240)) throws -> Set<[UInt8]> {
        var all = Set<[UInt8]>()
        for index in 0..<photos {
            let bytes = SafetyFixtures.jpeg(width: size.0, height: size.1, orientation: 1, seed: index)
            try folder.write(bytes, to: "dump/pets/rex/IMG_\(2000 + index).JPG")
            all.insert(bytes)
        }
        return all
    }

    static func log(_ number: Int) -> String {
        (1...40).map { "2024-0\(number)-\(String(format: "%02d", ($0 - 1) % 28 + 1)) 귀뚜라미 \($0 % 7 + 1)마리, 활발함 \(number * 100 + $0)\n" }.joined()
    }

    /// Every photo's bytes, in the dump and in the library.
    static func photoBytes(in folder: TemporaryFolder) -> (dump: [[UInt8]], library: [[UInt8]]) {
        let dump = folder.files(under: "dump").filter { $0.hasSuffix(".JPG") }
            .compactMap { SafetyFixtures.contents(folder.path("dump/\($0)")) }
        let library = folder.files(under: "Library/pets/rex/photos")
            .compactMap { SafetyFixtures.contents(folder.path("Library/pets/rex/photos/\($0)")) }
        return (dump, library)
    }

    @Test("Killed at random moments, a --move import never removes a source whose bytes are not in the library; a last run finishes the job")
    func killedMovesLoseNothing() async throws {
        let folder = try TemporaryFolder()
        let photos = try MoveUnderStressSafetyTests.makeDump(in: folder, photos: 40)
        let logs = (1...3).map { MoveUnderStressSafetyTests.log($0) }
        for (index, log) in logs.enumerated() { try folder.write(log, to: "dump/pets/rex/care-\(index + 1).txt") }
        let seed = TestSeed()
        var generator = seed.generator
        for _ in 0..<8 {
            let process = DossierBinary.process(["import", "--create", "dump", "--library", "Library", "--move", "--jobs", "2"], in: folder.url)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .milliseconds(Int.random(in: 5...250, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let (dump, library) = MoveUnderStressSafetyTests.photoBytes(in: folder)
            #expect(Set(dump).union(library) == photos, "a photo is neither in the dump nor in the library; \(seed)")
            for (index, log) in logs.enumerated() where !FileManager.default.fileExists(atPath: folder.path("dump/pets/rex/care-\(index + 1).txt")) {
                let kept = folder.files(under: "Library/sources").compactMap { SafetyFixtures.contents(folder.path("Library/sources/\($0)")) }
                #expect(kept.contains(Array(log.utf8)), "care-\(index + 1).txt was removed without its kept copy; \(seed)")
            }
        }
        let last = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(last.status == 0, "\(seed)\n\(last.standardOutput)")
        #expect(folder.files(under: "dump").isEmpty, "\(seed)")
        let (_, library) = MoveUnderStressSafetyTests.photoBytes(in: folder)
        #expect(library.count == photos.count, "\(seed)")
        #expect(Set(library) == photos, "\(seed)")
        #expect(folder.files(under: "Library/sources").count == 3, "\(seed)")
        let yearFile = try String(contentsOfFile: folder.path("Library/pets/rex/records/2024.jsonl"), encoding: .utf8)
        #expect(yearFile.split(separator: "\n").count == 120, "\(seed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier/staging")).isEmpty, "\(seed)")
    }

    @Test("On a full disk, a --move import removes no source it could not file whole, and names the reason",
          .enabled(if: getuid() == 0, "mounting a small file system for the library needs root (CI runs as root)"))
    func aFullDiskLosesNothing() throws {
        let folder = try TemporaryFolder()
        let library = folder.path("Library")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=700k", "tmpfs", library]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "could not mount a small tmpfs for the library")
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [library]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        #expect(try DossierBinary.run(["init", "Library"], in: folder.url).status == 0)
        // About 40 KB each: the library fills up part of the way through.
        let photos = try MoveUnderStressSafetyTests.makeDump(in: folder, photos: 30, size: (400, 300))
        let log = MoveUnderStressSafetyTests.log(4)
        try folder.write(log, to: "dump/pets/rex/care.txt")

        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        // The library itself failed: one line that says why (the file system's words or
        // SQLite's), no SQL, status 2; the sources not yet filed stay where they are.
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        let message = try #require(lines.first)
        #expect(message.hasPrefix("dossier: "))
        #expect(message.hasSuffix("No space left on device") || message.hasSuffix("database or disk is full"), "\(message)")
        #expect(!message.contains("INSERT") && !message.contains("UPDATE"))
        let (dump, filed) = MoveUnderStressSafetyTests.photoBytes(in: folder)
        #expect(!dump.isEmpty, "the disk never filled: make the photos bigger")
        #expect(Set(dump).union(filed) == photos, "a photo is neither in the dump nor in the library")
        for path in folder.files(under: "Library/pets/rex/photos") {
            let bytes = try #require(SafetyFixtures.contents(folder.path("Library/pets/rex/photos/\(path)")))
            #expect(photos.contains(bytes), "\(path) is not a whole photo")
        }
        if !FileManager.default.fileExists(atPath: folder.path("dump/pets/rex/care.txt")) {
            let kept = folder.files(under: "Library/sources").compactMap { SafetyFixtures.contents(folder.path("Library/sources/\($0)")) }
            #expect(kept.contains(Array(log.utf8)))
        }
    }
}
