import Foundation
import Logging
import DossierTestSupport
import Testing
@testable import DossierCore

@Suite("The import pipeline")
struct ImportPipelineTests {
    let folder: TemporaryFolder
    let counter = CallCounter()
    var library: LibraryLayout { LibraryLayout(root: folder.url.appendingPathComponent("Library")) }

    init() throws {
        folder = try TemporaryFolder()
    }

    func run(_ paths: [String], _ options: ImportOptions = ImportOptions(jobs: 2)) async throws -> [SourceOutcome] {
        let registry = try PluginRegistry(plugins: [
            .core,
            Plugin(name: "fake", summary: "test", importers: [FakePhotoImporter(counter: counter)],
                   transforms: [MarkingTransform()]),
        ])
        // The tests' pets/<id> folders name the subjects they file under.
        var options = options
        options.createsSubjects = true
        let pipeline = ImportPipeline(registry: registry, layout: library, options: options,
                                      logger: Logger(label: "test"))
        let recorder = OutcomeRecorder()
        _ = try await pipeline.run(paths.map { folder.url.appendingPathComponent($0).path }, listeners: [recorder])
        return recorder.outcomes.sorted { $0.source < $1.source }
    }

    func filedFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: library.root.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: library.root.appendingPathComponent(path).path, isDirectory: &isFolder)
            // The library's settings (config/library.json, written when it is made) are no filed file.
            if !isFolder.boolValue && !path.hasPrefix(".dossier") && !path.hasPrefix("config/") { files.append(path) }
        }
        return files.sorted()
    }

    func contents(_ relativePath: String) throws -> String {
        try String(contentsOf: library.root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    @Test("Files under pets/<id> and children/<id> folders are filed under those subjects, transformed")
    func filesUnderSubjects() async throws {
        _ = try folder.write(Array("FAKE 2023-05-01 a".utf8), to: "dump/pets/leo/one.dat")
        _ = try folder.write(Array("FAKE 2024-02-10 b".utf8), to: "dump/children/mina/two.dat")
        let outcomes = try await run(["dump"])
        #expect(outcomes.map(\.status) == [.imported, .imported])
        let files = filedFiles()
        let leoDigest = ContentDigest(of: Array("FAKE 2023-05-01 a!".utf8)).shortHex
        let minaDigest = ContentDigest(of: Array("FAKE 2024-02-10 b!".utf8)).shortHex
        #expect(files == ["children/mina/photos/2024/2024-02-10_000000_\(minaDigest).png",
                          "pets/leo/photos/2023/2023-05-01_000000_\(leoDigest).png"])
        #expect(try contents(files[1]) == "FAKE 2023-05-01 a!")
        #expect(outcomes[1].destination == library.root.appendingPathComponent(files[1]).path)
        #expect(outcomes[1].subject == (try Subject(parsing: "pets/leo")))
    }

    @Test("A re-import of unchanged sources settles them as duplicates without reading them")
    func reimportReadsNothing() async throws {
        for day in 1...5 { _ = try folder.write(Array("FAKE 2023-05-0\(day) x".utf8), to: "pets/leo/\(day).dat") }
        _ = try await run(["pets"])
        #expect(counter.calls == 5)
        let again = try await run(["pets"])
        #expect(again.map(\.status) == Array(repeating: .duplicate, count: 5))
        #expect(counter.calls == 5)
        #expect(filedFiles().count == 5)
    }

    @Test("The same bytes in two sources for one subject are filed once")
    func deduplicatesByContent() async throws {
        _ = try folder.write(Array("FAKE 2023-05-01 same".utf8), to: "pets/leo/a.dat")
        _ = try folder.write(Array("FAKE 2023-05-01 same".utf8), to: "pets/leo/b.dat")
        let outcomes = try await run(["pets"], ImportOptions(jobs: 1))
        #expect(outcomes.map(\.status) == [.imported, .duplicate])
        #expect(outcomes[1].destination == outcomes[0].destination)
        #expect(filedFiles().count == 1)
    }

    @Test("A dry run reports destinations and writes nothing, not even the index")
    func dryRunWritesNothing() async throws {
        _ = try folder.write(Array("FAKE 2023-05-01 a".utf8), to: "pets/leo/a.dat")
        let outcomes = try await run(["pets"], ImportOptions(dryRun: true))
        #expect(outcomes.map(\.status) == [.imported])
        #expect(outcomes[0].destination?.hasPrefix(library.root.path + "/pets/leo/photos/2023/2023-05-01_000000_") == true)
        #expect(!FileManager.default.fileExists(atPath: library.root.path))
    }

    @Test("Move removes a source only once it is filed; failed and skipped sources stay")
    func moveRemovesOnlyFiledSources() async throws {
        let good = try folder.write(Array("FAKE 2023-05-01 a".utf8), to: "pets/leo/good.dat")
        let bad = try folder.write(Array("FAKE BAD".utf8), to: "pets/leo/bad.dat")
        let other = try folder.write(Array("hello".utf8), to: "pets/leo/notes.txt")
        let outcomes = try await run(["pets"], ImportOptions(move: true))
        #expect(outcomes.map(\.status) == [.failed, .imported, .skipped])
        #expect(outcomes.map(\.sourceRemoved) == [false, true, false])
        #expect(!FileManager.default.fileExists(atPath: good))
        #expect(FileManager.default.fileExists(atPath: bad))
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(try contents(filedFiles()[0]) == "FAKE 2023-05-01 a!")
    }

    @Test("Bad and unknown files are reported with their path and reason while the others import")
    func reportsProblems() async throws {
        let bad = try folder.write(Array("FAKE BAD".utf8), to: "pets/leo/bad.dat")
        let pdf = try folder.write(Array("%PDF-1.7".utf8), to: "pets/leo/doc.pdf")
        let lost = try folder.write(Array("FAKE 2023-05-01 z".utf8), to: "elsewhere/lost.dat")
        _ = try folder.write(Array("FAKE 2023-05-01 ok".utf8), to: "pets/leo/ok.dat")
        let outcomes = try await run(["pets", "elsewhere", "missing"])
        let byPath = Dictionary(uniqueKeysWithValues: outcomes.map { ($0.source, $0) })
        #expect(byPath[bad]?.status == .failed)
        #expect(byPath[bad]?.error == "\(bad): fake data is corrupt: it says BAD")
        #expect(byPath[pdf]?.status == .skipped)
        #expect(byPath[pdf]?.error == "\(pdf): not a kind of file Dossier imports (it looks like a PDF document)")
        #expect(byPath[lost]?.status == .unassigned)
        #expect(byPath[lost]?.error == "\(lost): " + SourceWorker.noSubjectReason)
        let missing = folder.url.appendingPathComponent("missing").path
        #expect(byPath[missing]?.error == "\(missing): No such file or directory")
        #expect(outcomes.filter { $0.status == .imported }.count == 1)
        #expect(filedFiles().count == 1)
    }

    @Test("A folder named after an existing subject routes there; a name two subjects share is refused")
    func routesByExistingSubjects() async throws {
        try FileManager.default.createDirectory(at: library.root.appendingPathComponent("pets/leo"),
                                                withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: library.root.appendingPathComponent("pets/coco"),
                                                withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: library.root.appendingPathComponent("children/coco"),
                                                withIntermediateDirectories: true)
        _ = try folder.write(Array("FAKE 2023-05-01 a".utf8), to: "inbox/leo/a.dat")
        let shared = try folder.write(Array("FAKE 2023-05-01 b".utf8), to: "inbox/coco/b.dat")
        let outcomes = try await run(["inbox"])
        #expect(outcomes.map(\.status) == [.unassigned, .imported])
        #expect(outcomes[0].error == "\(shared): the folder 'coco' could be children/coco and pets/coco; give --subject")
        #expect(outcomes[1].subject == (try Subject(parsing: "pets/leo")))
    }

    @Test("A pets/<id> folder with an invalid id is refused with the rule, and the id it surely meant")
    func refusesInvalidFolderIDs() async throws {
        let source = try folder.write(Array("FAKE 2023-05-01 a".utf8), to: "pets/Leo/a.dat")
        let other = try folder.write(Array("FAKE 2023-05-01 b".utf8), to: "pets/Le o/b.dat")
        let outcomes = try await run(["pets"])
        #expect(outcomes.map(\.status) == [.unassigned, .unassigned])
        #expect(outcomes.compactMap(\.error).sorted() == [
            "\(other): the folder pets/Le o is not a valid subject id: an id is 1 to 64 characters of lowercase letters, "
                + "digits, '-' and '_'",
            "\(source): the folder pets/Leo is not a valid subject id (did you mean pets/leo?): an id is "
                + "1 to 64 characters of lowercase letters, digits, '-' and '_'",
        ])
    }

    @Test("No more sources than --jobs are worked on at once")
    func boundsConcurrency() async throws {
        // Each read sleeps 20 ms: with two jobs and at least two cores, two overlap. The other
        // tests running meanwhile (the whole suite takes about 20 s on two cores) can hold the
        // shared threads through several imports, so imports of new files go on until two
        // overlapped or 40 s have passed; never may more than two overlap.
        let expected = min(2, ProcessInfo.processInfo.activeProcessorCount)
        let deadline = Date().addingTimeInterval(40)
        var attempts = 0
        while counter.mostAtOnce < expected && Date() < deadline {
            attempts += 1
            for index in 0..<12 {
                _ = try folder.write(Array("FAKE 2023-05-01 \(attempts) \(index)".utf8), to: "pets/leo/\(attempts)/\(index).dat")
            }
            _ = try await run(["pets/leo/\(attempts)"], ImportOptions(jobs: 2))
            #expect(counter.calls == 12 * attempts)
        }
        #expect(counter.mostAtOnce == expected)
    }

    @Test("An existing file is never overwritten: another file of the same name the index knows is a copy of this one, damaged, and is kept aside")
    func neverOverwrites() async throws {
        _ = try folder.write(Array("FAKE 2023-05-01 a".utf8), to: "pets/leo/a.dat")
        let digest = ContentDigest(of: Array("FAKE 2023-05-01 a!".utf8)).shortHex
        let taken = "pets/leo/photos/2023/2023-05-01_000000_\(digest).png"
        try folder.write("someone else's file", to: "Library/\(taken)")
        // The library has no index yet: it is rebuilt from the folders, taking that file as filed
        // there. Its bytes are not the ones its name was made from: a damaged copy of the photo
        // the name belongs to, which goes back under it; the other bytes are kept, not lost.
        let outcomes = try await run(["pets"])
        #expect(outcomes.map(\.status) == [.imported])
        #expect(try contents(taken) == "FAKE 2023-05-01 a!")
        let aside = "damaged/\(Quarantine.dayFormatter.string(from: Date()))/\(taken)"
        #expect(try contents(aside) == "someone else's file")
        #expect(outcomes.first?.refiled == true)
        #expect(outcomes.first?.warnings == ["the damaged copy that stood at its name is kept at \(library.root.path)/\(aside)"])
        #expect(!FileManager.default.fileExists(atPath: library.root.appendingPathComponent(
            "pets/leo/photos/2023/2023-05-01_000000_\(digest)-2.png").path))
    }

    @Test("A file of the same name the index does not know keeps its name, and the photo takes the next")
    func unknownFilesKeepTheirNames() async throws {
        _ = try folder.write(Array("FAKE 2023-05-01 b".utf8), to: "pets/leo/b.dat")
        _ = try await run(["pets/leo/b.dat"])
        _ = try folder.write(Array("FAKE 2023-05-01 a".utf8), to: "pets/leo/a.dat")
        let digest = ContentDigest(of: Array("FAKE 2023-05-01 a!".utf8)).shortHex
        let taken = "pets/leo/photos/2023/2023-05-01_000000_\(digest).png"
        // Put there after the index was made: the library never filed it.
        try folder.write("someone else's file", to: "Library/\(taken)")
        let outcomes = try await run(["pets/leo/a.dat"])
        #expect(outcomes.map(\.status) == [.imported])
        #expect(try contents(taken) == "someone else's file")
        let renamed = "pets/leo/photos/2023/2023-05-01_000000_\(digest)-2.png"
        #expect(try contents(renamed) == "FAKE 2023-05-01 a!")
    }

    @Test("A whole file left under its name by a stopped run is adopted, and staging is cleared")
    func finishesAStoppedRun() async throws {
        // The run that stopped had made the library and its index.
        try LibrarySession.open(library, access: .creatingIfAbsent, dryRun: false, waitForLock: false, whileWaiting: { _ in }).close()
        _ = try folder.write(Array("FAKE 2023-05-01 a".utf8), to: "pets/leo/a.dat")
        let digest = ContentDigest(of: Array("FAKE 2023-05-01 a!".utf8)).shortHex
        try folder.write("FAKE 2023-05-01 a!", to: "Library/pets/leo/photos/2023/2023-05-01_000000_\(digest).png")
        try folder.write("half a fi", to: "Library/.dossier/staging/0123.part")
        let outcomes = try await run(["pets"])
        #expect(outcomes.map(\.status) == [.imported])
        #expect(filedFiles() == ["pets/leo/photos/2023/2023-05-01_000000_\(digest).png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.stagingFolder.path).isEmpty)
        let again = try await run(["pets"])
        #expect(again.map(\.status) == [.duplicate])
    }

    @Test("A second import into a busy library says so, naming the holder, when told not to wait")
    func refusesABusyLibrary() async throws {
        try FileManager.default.createDirectory(at: library.metadataFolder, withIntermediateDirectories: true)
        let lock = try LibraryLock.acquire(library, wait: false)
        _ = try folder.write(Array("FAKE 2023-05-01 a".utf8), to: "pets/leo/a.dat")
        await #expect(throws: LibraryError.busy(library: library.root.path, holder: "pid \(getpid())")) {
            _ = try await run(["pets"], ImportOptions(waitForLock: false))
        }
        withExtendedLifetime(lock) {}
        #expect(filedFiles().isEmpty)
    }
}

/// Collects outcomes in the order the pipeline reports them.
final class OutcomeRecorder: OutcomeListener, @unchecked Sendable {
    // The pipeline calls listeners one event at a time from one task.
    private(set) var outcomes: [SourceOutcome] = []

    func receive(_ event: ImportEvent) {
        if case .finished(let outcome, _, _) = event { outcomes.append(outcome) }
    }
}
