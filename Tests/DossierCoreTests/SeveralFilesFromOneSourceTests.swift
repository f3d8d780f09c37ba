import Foundation
import Logging
import DossierTestSupport
import Testing
@testable import DossierCore

@Suite("A source that gives several files")
struct SeveralFilesFromOneSourceTests {
    let folder: TemporaryFolder
    var library: LibraryLayout { LibraryLayout(root: folder.url.appendingPathComponent("Library")) }

    init() throws {
        folder = try TemporaryFolder()
    }

    func run(_ path: String, move: Bool = false, fanningOut: Bool = false) async throws -> SourceOutcome {
        let registry = try PluginRegistry(plugins: [
            .core,
            Plugin(name: "twin", summary: "test", importers: [TwinPhotoImporter(), FakePhotoImporter(counter: CallCounter())],
                   transforms: [MarkingTransform()] + (fanningOut ? [FanOutTransform()] as [any Transform] : [])),
        ])
        let pipeline = ImportPipeline(registry: registry, layout: library, options: ImportOptions(move: move, jobs: 1, createsSubjects: true),
                                      logger: Logger(label: "test"))
        let recorder = OutcomeRecorder()
        _ = try await pipeline.run([folder.path(path)], listeners: [recorder])
        return try #require(recorder.outcomes.first)
    }

    /// The bytes of every photo filed for pets/leo, by name.
    func filed() throws -> [String: String] {
        let photos = library.root.appendingPathComponent("pets/leo/photos/2023")
        var contents: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: photos.path)) ?? [] {
            contents[name] = try String(contentsOf: photos.appendingPathComponent(name), encoding: .utf8)
        }
        return contents
    }

    @Test("A source that holds two photos files both, indexes both, and --move removes it once both copies are checked")
    func twoPhotosFiledAndIndexed() async throws {
        let source = try folder.write("TWIN 2023-05-01 x", to: "pets/leo/pair.dat")
        let outcome = try await run("pets/leo/pair.dat", move: true)
        #expect(outcome.status == .imported)
        #expect(outcome.sourceRemoved)
        #expect(!FileManager.default.fileExists(atPath: source))
        #expect(Set(try filed().values) == ["TWIN 2023-05-01 x a!", "TWIN 2023-05-01 x b!"])
        let paths = ([outcome.destination] + outcome.alsoFiled.map(Optional.some)).compactMap { $0 }
        #expect(paths.count == 2)
        let index = try #require(try LibraryIndex.openReadOnly(library))
        defer { index.close() }
        for path in paths {
            let relative = String(path.dropFirst(library.root.path.count + 1))
            #expect(try index.filedFile(at: relative) != nil, "\(relative) is not in the index")
        }
    }

    @Test("Imported again with --move after one of its two filed copies was cut, the source is read again and removed only once both are whole")
    func damagedSecondCopyIsFiledAgainBeforeRemoval() async throws {
        try folder.write("TWIN 2023-05-01 y", to: "pets/leo/pair.dat")
        let first = try await run("pets/leo/pair.dat")
        #expect(first.status == .imported)
        let second = try #require(first.alsoFiled.first)
        try Data("TWIN".utf8).write(to: URL(fileURLWithPath: second))
        let again = try await run("pets/leo/pair.dat", move: true)
        #expect(again.sourceRemoved)
        // Both photos are in the library, whole, whatever became of the cut file.
        #expect(Set(try filed().values).isSuperset(of: ["TWIN 2023-05-01 y a!", "TWIN 2023-05-01 y b!"]))
    }

    @Test("A transform that fans a photo out to two files both, each indexed")
    func fanOutFilesEach() async throws {
        try folder.write("FAKE 2023-05-01 z", to: "pets/leo/one.dat")
        let outcome = try await run("pets/leo/one.dat", fanningOut: true)
        #expect(outcome.status == .imported)
        #expect(outcome.alsoFiled.count == 1)
        #expect(Set(try filed().values) == ["FAKE 2023-05-01 z!", "FAKE 2023-05-01 z! (copy)"])
    }
}

/// Reads `TWIN <yyyy-mm-dd> <anything>` as two photos of that day: the text with " a" and " b".
struct TwinPhotoImporter: Importer {
    let name = "twin"
    let keepsSource = false
    let summary = "two photos in one file"

    func canRead(head: [UInt8]) -> Bool { head.starts(with: Array("TWIN".utf8)) }

    func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        let data = try input.readAll()
        let fields = String(decoding: data.bytes, as: UTF8.self).split(separator: " ")
        let day = fields[1].split(separator: "-").compactMap { Int($0) }
        let date = LocalDateTime(year: day[0], month: day[1], day: day[2])!
        for half in [" a", " b"] {
            try sink.accept(.photo(Photo(source: data.source, format: .png, content: .memory(data.bytes + Array(half.utf8)),
                                         sourceDigest: data.digest, orientation: .up, width: 1, height: 1,
                                         captureDate: CaptureDate(date, origin: .exifDateTimeOriginal), exif: nil)))
        }
    }
}

/// Gives each photo back with a copy of it beside, marked " (copy)".
struct FanOutTransform: Transform {
    let name = "fan-out"
    let summary = "test transform"
    let stage = TransformStage.derived

    func apply(to batch: inout ItemBatch, context: PipelineContext) throws {
        batch.items = batch.items.flatMap { item -> [Item] in
            guard case .photo(var copy) = item, case .memory(let bytes) = copy.content else { return [item] }
            copy.content = .memory(bytes + Array(" (copy)".utf8))
            return [item, .photo(copy)]
        }
    }
}
