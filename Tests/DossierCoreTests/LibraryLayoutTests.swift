import Foundation
import DossierTestSupport
import Testing
@testable import DossierCore

@Suite("Library layout")
struct LibraryLayoutTests {
    let layout = LibraryLayout(root: URL(fileURLWithPath: "/tmp/lib"))

    @Test("A photo is filed under its subject, year, date and hash prefix")
    func photoPaths() throws {
        let subject = try Subject(parsing: "pets/leo")
        let date = try #require(LocalDateTime(year: 2024, month: 3, day: 2, hour: 14, minute: 15, second: 3))
        let digest = ContentDigest(of: Array("abc".utf8))
        #expect(digest.hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(layout.photoPath(for: subject, takenAt: date, digest: digest, format: .jpeg)
            == "pets/leo/photos/2024/2024-03-02_141503_ba7816bf.jpg")
        #expect(layout.photoPath(for: subject, takenAt: date, digest: digest, format: .png, collisionIndex: 1)
            == "pets/leo/photos/2024/2024-03-02_141503_ba7816bf-2.png")
    }

    @Test("Relative paths that would leave the library are refused",
          arguments: ["../etc/passwd", "/etc/passwd", "pets/../../x", "pets//leo", "./pets", ""])
    func refusesEscapes(_ path: String) {
        #expect(throws: LibraryError.pathOutsideLibrary(path)) { try layout.url(forRelativePath: path) }
    }

    @Test("The library is --library, else $DOSSIER_LIBRARY, else ./Library")
    func resolvesTheLibrary() {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(LibraryLayout.resolve(option: "/a/b", environment: ["DOSSIER_LIBRARY": "/c"]).root.path == "/a/b")
        #expect(LibraryLayout.resolve(option: nil, environment: ["DOSSIER_LIBRARY": "/c"]).root.path == "/c")
        #expect(LibraryLayout.resolve(option: nil, environment: [:]).root.path == "\(cwd)/Library")
    }

    @Test("Existing subjects are the folders with valid ids under pets and children")
    func listsExistingSubjects() throws {
        let root = try TemporaryFolder()
        for folder in ["pets/leo", "pets/Bad Name", "children/mina", "birds/tweety"] {
            try FileManager.default.createDirectory(at: root.url.appendingPathComponent(folder),
                                                    withIntermediateDirectories: true)
        }
        let subjects = LibraryLayout(root: root.url).existingSubjects()
        #expect(subjects == [try Subject(parsing: "pets/leo"), try Subject(parsing: "children/mina")])
    }
}
