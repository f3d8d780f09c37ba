import DossierCore
import DossierTestSupport
import Foundation
import Testing

@Suite("The quarantine: sources moved in whole, with a note, and never removed on the note's word alone")
struct QuarantineTests {
    func source(_ folder: TemporaryFolder, _ relative: String, _ bytes: [UInt8]) throws -> SourceFile {
        let path = try folder.write(bytes, to: relative)
        var info = stat()
        #expect(stat(path, &info) == 0)
        return SourceFile(path: path, info: info, namedFolder: folder.path("inbox"))
    }

    /// A library with its staging folder, and its (empty) quarantine.
    func emptyQuarantine(in folder: TemporaryFolder) throws -> (LibraryLayout, Quarantine) {
        let layout = LibraryLayout(root: folder.url.appendingPathComponent("Library"))
        try FileManager.default.createDirectory(at: layout.stagingFolder, withIntermediateDirectories: true)
        return (layout, Quarantine(layout: layout))
    }

    @Test("moves the source in with its note, and a second source of the same name beside it")
    func admitsWithNotes() throws {
        let folder = try TemporaryFolder()
        let (layout, quarantine) = try emptyQuarantine(in: folder)
        let first = try source(folder, "inbox/pets/rex/IMG_1.jpg", Array("not a photo".utf8))
        let entry = try quarantine.admit(first, stage: .read, reason: "broken", at: Date(timeIntervalSince1970: 1_764_000_000))
        #expect(!FileManager.default.fileExists(atPath: first.path))
        #expect(entry.originalPath == first.path && entry.stage == .read && entry.reason == "broken")
        #expect(entry.sha256 == ContentDigest(of: Array("not a photo".utf8)).hex && entry.size == 11)
        #expect(try layout.files.readFile(try quarantine.path(of: entry)) == Array("not a photo".utf8))
        let second = try source(folder, "inbox/IMG_1.jpg", Array("another".utf8))
        let other = try quarantine.admit(second, stage: .route, reason: "no subject", at: Date(timeIntervalSince1970: 1_764_000_000))
        #expect(other.id.hasSuffix("/IMG_1 (2).jpg"))
        #expect(Set(try quarantine.entries().map(\.id)) == [entry.id, other.id])
    }

    @Test("a source already quarantined with the same bytes is only removed once the quarantined copy is read back whole")
    func alreadyQuarantinedIsCheckedBeforeTheSourceGoes() throws {
        let folder = try TemporaryFolder()
        let (layout, quarantine) = try emptyQuarantine(in: folder)
        let bytes = Array("the only copy of a note".utf8)
        let entry = try quarantine.admit(try source(folder, "inbox/a.txt", bytes), stage: .route, reason: "no subject")
        // The same bytes at the same place again (as after a crash between copying in and removing).
        let again = try source(folder, "inbox/a.txt", bytes)
        _ = try quarantine.admit(again, stage: .route, reason: "no subject")
        #expect(!FileManager.default.fileExists(atPath: again.path))
        #expect(try quarantine.entries().count == 1)
        // Now the quarantined copy is damaged: the next such source is moved in, not removed.
        let copy = try quarantine.path(of: entry)
        #expect(truncate(copy, 5) == 0)
        let third = try source(folder, "inbox/a.txt", bytes)
        let kept = try quarantine.admit(third, stage: .route, reason: "no subject")
        #expect(kept.id != entry.id)
        #expect(try layout.files.readFile(try quarantine.path(of: kept)) == bytes)
    }

    @Test("a name too long for its note is shortened, keeping its start, a hash of it and its extension; found again when it comes back")
    func longNamesAreShortened() throws {
        let folder = try TemporaryFolder()
        let (_, quarantine) = try emptyQuarantine(in: folder)
        let long = String(repeating: "레오의사진", count: 16) + "가나.jpg"
        #expect(long.utf8.count == 250)
        let bytes = Array("not a photo".utf8)
        let entry = try quarantine.admit(try source(folder, "inbox/\(long)", bytes), stage: .read, reason: "broken")
        let name = (entry.id as NSString).lastPathComponent
        let mark = "~" + ContentDigest(of: Array(long.utf8)).shortHex
        #expect(name.utf8.count + Quarantine.noteSuffix.utf8.count <= 255)
        #expect(name.hasPrefix("레오의사진") && name.hasSuffix("\(mark).jpg"), "\(name)")
        #expect(entry.originalPath == folder.path("inbox/\(long)"))
        // Back with the same bytes (a crash between copying in and removing): only removed from the inbox.
        let again = try source(folder, "inbox/\(long)", bytes)
        #expect(try quarantine.admit(again, stage: .read, reason: "broken").id == entry.id)
        #expect(!FileManager.default.fileExists(atPath: again.path))
        // Other bytes under that name: beside it, shortened too.
        let other = try quarantine.admit(try source(folder, "inbox/\(long)", Array("another".utf8)), stage: .read, reason: "broken")
        let otherName = (other.id as NSString).lastPathComponent
        #expect(otherName.hasPrefix("레오의사진") && otherName.hasSuffix("\(mark) (2).jpg"), "\(otherName)")
        #expect(otherName.utf8.count + Quarantine.noteSuffix.utf8.count <= 255)
        #expect(try quarantine.entries().count == 2)
    }
}
