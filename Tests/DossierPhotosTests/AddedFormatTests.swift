import DossierCore
import DossierPhotos
import DossierTestSupport
import Foundation
import Logging
import Testing

/// Adding a format is new files (`ToyHandler`, `PhotoFormat+Toy`) and one registration line;
/// nothing in Core changes.
@Suite("A photo format added by a plugin")
struct AddedFormatTests {
    let folder: TemporaryFolder
    let leo = try! Subject(parsing: "pets/leo")
    static let toyPhoto = ToyHandler.magic + Array(" a drawing of Leo\n".utf8) + [0x00, 0xFF, 0x10]

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Imports the dump through the real pipeline with these plugins; the layout it filed into,
    /// and each source's outcome.
    func importDump(with plugins: [Plugin]) async throws -> (LibraryLayout, OutcomeRecorder) {
        let registry = try PluginRegistry(plugins: plugins)
        let layout = LibraryLayout(root: folder.url.appendingPathComponent("Library"), photoFormats: registry.photoFormats)
        let recorder = OutcomeRecorder()
        let pipeline = ImportPipeline(registry: registry, layout: layout, options: ImportOptions(jobs: 2, createsSubjects: true),
                                      logger: Logger(label: "test"))
        _ = try await pipeline.run([folder.path("dump")], listeners: [recorder])
        return (layout, recorder)
    }

    @Test("A format registered in one line is imported end to end: filed byte for byte under its extension, and indexed")
    func registeredFormatIsFiled() async throws {
        let source = try folder.write(AddedFormatTests.toyPhoto, to: "dump/pets/leo/sketch.dat")
        let (layout, recorder) = try await importDump(with: [
            .core, .photos,
            .photoFormats(name: "toy", summary: "toy photos", handlers: [ToyHandler()]),
        ])

        let outcome = try #require(recorder.outcome(of: source))
        #expect(outcome.status == .imported, "\(outcome)")
        #expect(outcome.subject == leo)
        let digest = ContentDigest(of: AddedFormatTests.toyPhoto)
        let filed = folder.files(under: "Library").filter { !$0.hasPrefix("config/") }
        #expect(filed.count == 1)
        let path = try #require(filed.first)
        #expect(path.hasPrefix("pets/leo/photos/") && path.hasSuffix("_\(digest.shortHex).toy"), "\(path)")
        #expect(outcome.destination == folder.path("Library/\(path)"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/\(path)")))) == AddedFormatTests.toyPhoto)
        let index = try #require(try LibraryIndex.openReadOnly(layout))
        defer { index.close() }
        #expect(try index.filedFile(for: leo, digest: digest)?.path == path)
    }

    @Test("Without its registration line the same file is no photo Dossier reads, and nothing is filed")
    func unregisteredFormatIsSkipped() async throws {
        let source = try folder.write(AddedFormatTests.toyPhoto, to: "dump/pets/leo/sketch.dat")
        let (_, recorder) = try await importDump(with: [.core, .photos])

        #expect(recorder.outcome(of: source)?.status == .skipped)
        #expect(folder.files(under: "Library").filter { $0.hasPrefix("pets/") }.isEmpty)
    }

    @Test("Two plugins that file different formats under one extension are refused")
    func conflictingFormatsAreRefused() {
        let otherJPEG = PhotoFormat(fileExtension: "jpg", displayName: "Not quite JPEG")
        #expect(throws: PluginError.conflictingPhotoFormats(fileExtension: "jpg")) {
            try PluginRegistry(plugins: [.photos, Plugin(name: "other", summary: "another jpg", photoFormats: [otherJPEG])])
        }
    }
}
