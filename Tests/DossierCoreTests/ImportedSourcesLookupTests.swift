import DossierTestSupport
import Foundation
import Testing
@testable import DossierCore

/// A still asks the index after its movie and raws under a score of names at once
/// (`LivePhotoReunion`): one read must answer as a read of each name would.
@Suite("Looking up the sources imported from several paths at once")
struct ImportedSourcesLookupTests {
    let folder: TemporaryFolder
    var layout: LibraryLayout { LibraryLayout(root: folder.url.appendingPathComponent("Library")) }

    init() throws {
        folder = try TemporaryFolder()
    }

    static func source(_ path: String, requestedSubject: String = "") -> ImportedSource {
        ImportedSource(path: path, requestedSubject: requestedSubject, size: 1, modificationTime: 2,
                       sha256: String(repeating: "a", count: 64), subject: "pets/leo", filedPath: "pets/leo/videos/2024/2024-01-02_030405_aaaaaaaa.mov")
    }

    @Test("Several paths give the rows one lookup of each path gives, grouped in the order the paths were asked")
    func severalPathsAnswerAsOneLookupEach() throws {
        try FileManager.default.createDirectory(at: layout.metadataFolder, withIntermediateDirectories: true)
        let index = try LibraryIndex.open(layout, identity: LibraryIdentity())
        defer { index.close() }
        let rows = [
            ImportedSourcesLookupTests.source("/dump/IMG_1.mov"),
            ImportedSourcesLookupTests.source("/dump/IMG_1.MOV", requestedSubject: "pets/mia"),
            ImportedSourcesLookupTests.source("/dump/IMG_1.MOV"),
            ImportedSourcesLookupTests.source("/dump/IMG_1.dng"),
            ImportedSourcesLookupTests.source("/dump/IMG_2.MOV"),
        ]
        try index.record(photos: rows.map { PhotoRows(filed: [], source: $0) })
        let paths = ["/dump/IMG_1.MOV", "/dump/IMG_1.mov", "/dump/IMG_1.CR2", "/dump/IMG_1.dng", "/dump/IMG_1.MOV"]
        let oneEach = try ["/dump/IMG_1.MOV", "/dump/IMG_1.mov", "/dump/IMG_1.CR2", "/dump/IMG_1.dng"].flatMap {
            try index.importedSources(at: $0)
        }
        #expect(try index.importedSources(atAnyOf: paths) == oneEach)
        #expect(oneEach.map(\.path) == ["/dump/IMG_1.MOV", "/dump/IMG_1.MOV", "/dump/IMG_1.mov", "/dump/IMG_1.dng"])
        #expect(try index.importedSources(atAnyOf: []).isEmpty)
    }
}
