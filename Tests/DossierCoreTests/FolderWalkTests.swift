import DossierTestSupport
import Foundation
import Testing
@testable import DossierCore

/// The one walk `import` and `watch` share: what it enters, what it passes over, in which order.
@Suite("The folder walk of import and watch")
struct FolderWalkTests {
    /// Every event of a walk of `folder`, as text, entering every folder it may.
    static func events(of folder: String, library: LibraryBoundary? = nil) -> [String] {
        var events: [String] = []
        FolderWalk(library: library, mounts: MountTable.current()).walk(folder) { event in
            let relative = { (path: String) in path == folder ? "." : String(path.dropFirst(folder.count + 1)) }
            switch event {
            case .entering(let path): events.append("enter \(relative(path))")
            case .passedOver(let path, let isTheLibrary): events.append("library \(relative(path)) \(isTheLibrary)")
            case .unreadable(let path, let code): events.append("unreadable \(relative(path)) \(code)")
            case .file(let entry): events.append("file \(relative(entry.path))")
            case .passedOverName(let entry): events.append("passed \(relative(entry.path)) \(entry.passedOver?.code ?? "?")")
            }
            return true
        }
        return events
    }

    @Test("Files come in name order, depth first; hidden and tool folders and files are met as passed over, never entered")
    func nameOrderAndSkippedNames() throws {
        let folder = try TemporaryFolder()
        for path in ["dump/b/IMG_2.jpg", "dump/a/IMG_1.jpg", "dump/a/.DS_Store", "dump/@eaDir/IMG_1.jpg/SYNOPHOTO_THUMB_M.jpg",
                     "dump/.stversions/IMG_3.jpg", "dump/.hidden/IMG_4.jpg", "dump/notes.txt", "dump/IMG_5.JPG.part"] {
            _ = try folder.write("x", to: path)
        }
        #expect(FolderWalkTests.events(of: folder.path("dump")) == [
            "enter .", "passed .hidden hidden", "passed .stversions hidden", "passed @eaDir hidden",
            "passed IMG_5.JPG.part being-written", "enter a", "passed a/.DS_Store hidden", "file a/IMG_1.jpg",
            "enter b", "file b/IMG_2.jpg", "file notes.txt",
        ])
    }

    @Test("A library in the tree is passed over, never entered: another one, and the one filed into seen through a link")
    func librariesPassedOver() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("{}", to: "dump/old-library/\(LibraryIdentity.relativePath)")
        _ = try folder.write("x", to: "dump/old-library/pets/leo/photos/2024/a.jpg")
        _ = try folder.write("{}", to: "Library/\(LibraryIdentity.relativePath)")
        _ = try folder.write("x", to: "dump/IMG_1.jpg")
        let library = LibraryBoundary(root: folder.path("Library"))
        #expect(FolderWalkTests.events(of: folder.path("dump"), library: library) == [
            "enter .", "file IMG_1.jpg", "library old-library false",
        ])
        #expect(FolderWalkTests.events(of: folder.path("Library"), library: library) == ["library . true"])
    }

    @Test("A link to a folder is met as a file, never entered, so a link cycle cannot make the walk endless")
    func linkedFolderIsNotEntered() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("x", to: "dump/a/IMG_1.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder.path("dump/a/loop"), withDestinationPath: folder.path("dump"))
        #expect(FolderWalkTests.events(of: folder.path("dump")) == ["enter .", "enter a", "file a/IMG_1.jpg", "file a/loop"])
    }
}
