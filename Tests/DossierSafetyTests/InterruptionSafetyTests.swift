import DossierCore
import DossierPhotos
import Foundation
import DossierTestSupport
import Testing

/// Ctrl-C and SIGTERM in the middle of an import: a quick, honest stop that leaves only whole files.
@Suite("An interrupted import stops quickly and says so")
struct InterruptionSafetyTests {
    /// Sideways photos that need re-encoding (469 rows is not whole MCUs), and a log of `lines`
    /// entries.
    static func makeDump(in folder: TemporaryFolder, photos: Int = 40, lines: Int = 20_000) throws {
        for index in 0..<photos {
            try folder.write(SafetyFixtures.jpeg(width: 640, height: 469, orientation: 6, seed: index),
                             to: "dump/pets/rex/IMG_\(3000 + index).JPG")
        }
        var log = ""
        for day in 0..<lines {
            log += "2024-\(String(format: "%02d", day % 12 + 1))-\(String(format: "%02d", day % 28 + 1)) 귀뚜라미 \(day % 9 + 1)마리 #\(day)\n"
        }
        try folder.write(log, to: "dump/pets/rex/care.txt")
    }

    struct Stopped {
        let status: Int32
        let secondsAfterSignal: Double
        let output: String
    }

    /// Starts an import, sends `signals` `delay` after it holds the library, waits for the end.
    /// Synchronous on purpose: an async wait could be resumed late, when other tests keep the
    /// cooperative threads busy, and the import would be over before the signal is sent.
    /// Interrupts the import `delay` after it took the library's lock, or, given `ready`, once
    /// `ready` holds (polled, for at most 30 s): on a loaded machine a fixed delay may come
    /// before anything was filed.
    static func interrupt(_ folder: TemporaryFolder, with signals: [Int32], after delay: Duration,
                          once ready: (() -> Bool)? = nil) throws -> Stopped {
        let process = DossierBinary.process(["import", "--create", "dump", "--library", "Library", "--json", "--jobs", "2"], in: folder.url)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        nonisolated(unsafe) var data = Data()
        let read = DispatchSemaphore(value: 0)
        let reading = Thread {
            data = output.fileHandleForReading.readDataToEndOfFile()
            read.signal()
        }
        try process.run()
        reading.start()
        let lock = folder.path("Library/.dossier/lock")
        while !FileManager.default.fileExists(atPath: lock) && process.isRunning { usleep(2_000) }
        let delayMicroseconds = delay.components.seconds * 1_000_000 + delay.components.attoseconds / 1_000_000_000_000
        usleep(useconds_t(delayMicroseconds))
        if let ready {
            let deadline = ContinuousClock.now + .seconds(30)
            while !ready() && process.isRunning && ContinuousClock.now < deadline { usleep(2_000) }
        }
        #expect(process.isRunning, "the import ended before it could be interrupted: give it more to do")
        let signalled = ContinuousClock.now
        for number in signals { kill(process.processIdentifier, number) }
        process.waitUntilExit()
        let seconds = (ContinuousClock.now - signalled) / .seconds(1)
        read.wait()
        return Stopped(status: process.terminationStatus, secondsAfterSignal: seconds,
                       output: String(decoding: data, as: UTF8.self))
    }

    static func summary(_ output: String) -> [String: Any]? {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .last?["summary"] as? [String: Any]
    }

    /// Every photo filed so far decodes and carries its own hash in its name; staging holds only
    /// what a re-run clears.
    static func expectOnlyWholePhotos(in folder: TemporaryFolder) throws {
        for path in folder.files(under: "Library/pets/rex/photos") {
            let bytes = try #require(SafetyFixtures.contents(folder.path("Library/pets/rex/photos/\(path)")))
            #expect(((path as NSString).deletingPathExtension).hasSuffix("_" + ContentDigest(of: bytes).shortHex))
            #expect(throws: Never.self) { try JPEGCodec.validate(bytes) }
        }
    }

    @Test("Ctrl-C or SIGTERM ends the import with status 130 or 143 and `interrupted` in the summary; a re-run finishes the job",
          arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalStopsTheImport(signal: Int32, expectedStatus: Int32) async throws {
        let folder = try TemporaryFolder()
        try InterruptionSafetyTests.makeDump(in: folder)
        let stopped = try InterruptionSafetyTests.interrupt(folder, with: [signal], after: .milliseconds(200))
        #expect(stopped.status == expectedStatus)
        let summary = try #require(InterruptionSafetyTests.summary(stopped.output))
        #expect(summary["interrupted"] as? Bool == true)
        try InterruptionSafetyTests.expectOnlyWholePhotos(in: folder)

        let again = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(again.status == 0)
        #expect(again.summary?["interrupted"] as? Bool == false)
        #expect(folder.files(under: "Library/pets/rex/photos").count == 40)
        let yearFile = folder.path("Library/pets/rex/records/2024.jsonl")
        #expect(try String(contentsOfFile: yearFile, encoding: .utf8).split(separator: "\n").count == 20_000)
        try InterruptionSafetyTests.expectOnlyWholePhotos(in: folder)
    }

    /// The filed files `output`'s outcomes report, each as the index names it (nil when it does not).
    static func indexed(_ output: String, in folder: TemporaryFolder) throws -> [String: FiledFile?] {
        let layout = LibraryLayout(root: folder.url.appendingPathComponent("Library"))
        let index = try #require(try LibraryIndex.openReadOnly(layout))
        defer { index.close() }
        var found: [String: FiledFile?] = [:]
        for line in output.split(separator: "\n") {
            guard let outcome = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  outcome["status"] as? String == "imported", let destination = outcome["destination"] as? String
            else { continue }
            let relative = String(destination.dropFirst(layout.root.path.count + 1))
            found[relative] = try index.filedFile(at: relative)
        }
        return found
    }

    @Test("Every photo an import reports filed is in the index when it ends, its rows committed 64 sources at a time")
    func everyFiledPhotoIsIndexed() throws {
        let folder = try TemporaryFolder()
        for index in 0..<70 {
            try folder.write(SafetyFixtures.jpeg(width: 48, height: 32, orientation: 1, seed: index), to: "dump/pets/rex/IMG_\(index).JPG")
        }
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0)
        let indexed = try InterruptionSafetyTests.indexed(result.standardOutput, in: folder)
        #expect(indexed.count == 70)
        #expect(indexed.values.allSatisfy { $0 != nil }, "\(indexed.filter { $0.value == nil }.keys.sorted())")
        // Known as imported: each is a duplicate decided before a byte of it is read.
        let again = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(again.summary?["duplicate"] as? Int == 70)
    }

    @Test("Every photo an interrupted import reported filed is in the index: its waiting rows are committed as it stops")
    func anInterruptedImportIndexesWhatItReported() throws {
        let folder = try TemporaryFolder()
        try InterruptionSafetyTests.makeDump(in: folder, photos: 40, lines: 0)
        let stopped = try InterruptionSafetyTests.interrupt(folder, with: [SIGINT], after: .milliseconds(50)) {
            folder.files(under: "Library/pets/rex/photos").count >= 2
        }
        #expect(stopped.status == 130)
        let indexed = try InterruptionSafetyTests.indexed(stopped.output, in: folder)
        #expect(!indexed.isEmpty, "nothing was filed before the signal: give it less to do first")
        #expect(indexed.values.allSatisfy { $0 != nil }, "\(indexed.filter { $0.value == nil }.keys.sorted())")
    }

    @Test("A long log under way is abandoned whole at its next batch, not read to its end")
    func aLongLogIsAbandonedWhole() async throws {
        let folder = try TemporaryFolder()
        // Read to its end, this log takes this build several seconds.
        try InterruptionSafetyTests.makeDump(in: folder, photos: 0, lines: 1_000_000)
        // Signalled once the log is under way (its kept copy begun in staging), however slow the machine.
        let stopped = try InterruptionSafetyTests.interrupt(folder, with: [SIGINT], after: .milliseconds(50)) {
            !folder.files(under: "Library/.dossier/staging").isEmpty
        }
        #expect(stopped.status == 130)
        #expect(stopped.secondsAfterSignal < 3, "took \(stopped.secondsAfterSignal) s to stop")
        let log = try #require(stopped.output.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.first { $0["source"] != nil })
        #expect(log["status"] as? String == "failed")
        #expect(log["error"] as? String == folder.path("dump/pets/rex/care.txt")
            + ": interrupted before it was filed: nothing of it is in the library; import it again")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library/pets/rex/records")))
        #expect(folder.files(under: "Library/sources").isEmpty)
    }

    @Test("A second signal right after the first ends the import at once (no summary), still leaving only whole files")
    func aSecondSignalIsNotLost() async throws {
        let folder = try TemporaryFolder()
        try InterruptionSafetyTests.makeDump(in: folder)
        // Two Ctrl-Cs sent together would be one signal to the kernel; SIGINT then SIGTERM are two.
        let stopped = try InterruptionSafetyTests.interrupt(folder, with: [SIGINT, SIGTERM], after: .milliseconds(300))
        // Which of the two the kernel hands over first, on which thread, is its choice.
        #expect([130, 143].contains(stopped.status))
        #expect(InterruptionSafetyTests.summary(stopped.output) == nil)
        try InterruptionSafetyTests.expectOnlyWholePhotos(in: folder)
        let again = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(again.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier/staging")).isEmpty)
    }
}
