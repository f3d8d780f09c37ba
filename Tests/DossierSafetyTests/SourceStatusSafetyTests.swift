import DossierCore
import DossierTestSupport
import Foundation
import Glibc
import Testing

/// A source is settled as unchanged, unread, only by its whole status (size, modification time,
/// device, inode, change time), and removed (`--move`, the daemon) only when its bytes as they
/// are now were read and filed: a same-size fix whose modification time was put back (`exiftool
/// -P`, `touch -r`, a FAT card's two-second times) is read and filed, never removed unfiled.
@Suite("A source is unchanged only by its whole status", .serialized)
struct SourceStatusSafetyTests {
    static let taken = "2024:03:01 09:30:00"
    static let fixed = "2024:03:02 09:30:00"

    /// The filed photos of pets/rex, each path with its bytes.
    static func filedPhotos(_ folder: TemporaryFolder) -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: folder.files(under: "Library/pets/rex/photos").map {
            ($0, SafetyFixtures.contents(folder.path("Library/pets/rex/photos/\($0)")) ?? [])
        })
    }

    /// Fixes the photo's date in place: the day's last digit, the size and times kept.
    static func fixDate(of path: String) throws -> [UInt8] {
        let before = try #require(SafetyFixtures.contents(path))
        let offset = try #require(SourceTampering.offset(of: Array(taken.utf8), in: before))
        try SourceTampering.editInPlace(path, at: offset + 9, to: Array("2".utf8))
        let after = try #require(SafetyFixtures.contents(path))
        #expect(after.count == before.count && SourceTampering.offset(of: Array(fixed.utf8), in: after) != nil)
        return after
    }

    @Test("A photo fixed in place to the same size, its time put back, is filed anew by import --move and only then removed; the old photo stays")
    func aSameSizeFixOfAPhotoIsFiledBeforeItIsRemoved() throws {
        let folder = try WatchSafetyTests.prepare()
        let original = SafetyFixtures.datedJPEG(taken: SourceStatusSafetyTests.taken, seed: 3)
        let source = try folder.write(original, to: "dump/pets/rex/IMG_0001.JPG")
        let first = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
        #expect(first.outcomes.first?["taken"] as? String == "2024-03-01T09:30:00", "\(first.standardOutput)")
        let fixedBytes = try SourceStatusSafetyTests.fixDate(of: source)

        let moved = try DossierBinary.run(["import", "dump", "--library", "Library", "--move", "--json"], in: folder.url)

        #expect(moved.status == 0, "\(moved.standardOutput)\(moved.standardError)")
        let outcome = try #require(moved.outcomes.first)
        #expect(outcome["status"] as? String == "imported", "\(moved.standardOutput)")
        #expect(outcome["taken"] as? String == "2024-03-02T09:30:00", "\(moved.standardOutput)")
        #expect(outcome["sourceRemoved"] as? Bool == true, "\(moved.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: source))
        // The fixed bytes are filed, as a photo of their own date, and the old photo is still there.
        let filed = SourceStatusSafetyTests.filedPhotos(folder)
        #expect(filed.count == 2, "\(filed.keys.sorted())")
        let (holdsFixed, holdsOriginal) = (filed.values.contains(fixedBytes), filed.values.contains(original))
        #expect(holdsFixed, "the fixed bytes are not filed")
        #expect(holdsOriginal, "the first photo is gone")
        #expect(filed.keys.contains { $0.contains("2024-03-02") }, "\(filed.keys.sorted())")
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
    }

    @Test("A log edited in place to the same size, its time put back, has its new line filed by import --move before it is removed")
    func aSameSizeEditOfALogIsFiledBeforeItIsRemoved() throws {
        let folder = try WatchSafetyTests.prepare()
        let log = "2024-03-01 Rex weight 400 g\n2024-03-02 Rex weight 410 g\n"
        let source = try folder.write(log, to: "dump/pets/rex/weights.txt")
        let first = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
        // 410 g was a misreading: 416 g, the same number of bytes.
        try SourceTampering.editInPlace(source, at: log.utf8.count - 4, to: Array("6".utf8))
        #expect(SafetyFixtures.contents(source) == Array("2024-03-01 Rex weight 400 g\n2024-03-02 Rex weight 416 g\n".utf8))

        let moved = try DossierBinary.run(["import", "dump", "--library", "Library", "--move", "--json"], in: folder.url)

        #expect(moved.status == 0, "\(moved.standardOutput)\(moved.standardError)")
        let outcome = try #require(moved.outcomes.first)
        #expect(outcome["status"] as? String == "imported", "\(moved.standardOutput)")
        #expect((outcome["records"] as? [String: Any])?["added"] as? Int == 1, "\(moved.standardOutput)")
        #expect((outcome["records"] as? [String: Any])?["removed"] as? Int == 1, "\(moved.standardOutput)")
        #expect(outcome["sourceRemoved"] as? Bool == true)
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 416"])
        #expect(!FileManager.default.fileExists(atPath: source))
        // Both versions stay readable among the kept sources.
        #expect(folder.files(under: "Library/sources").count == 2)
    }

    @Test("The daemon files a photo fixed in place to the same size, its time put back, that an import filed before, and only then takes it out of the inbox")
    func theDaemonFilesASameSizeFix() async throws {
        let folder = try WatchSafetyTests.prepare()
        let original = SafetyFixtures.datedJPEG(taken: SourceStatusSafetyTests.taken, seed: 4)
        let source = try folder.write(original, to: "inbox/pets/rex/IMG_0002.JPG")
        let first = try DossierBinary.run(["import", "inbox", "--library", "Library", "--json"], in: folder.url)
        #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
        let fixedBytes = try SourceStatusSafetyTests.fixDate(of: source)

        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !WatchSafetyTests.inboxFiles(folder).contains("pets/rex/IMG_0002.JPG") }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)

        #expect(daemon.events("duplicate").isEmpty, "\(daemon.text)")
        #expect(daemon.events("filed").count == 1, "\(daemon.text)")
        let filed = SourceStatusSafetyTests.filedPhotos(folder)
        #expect(filed.count == 2, "\(filed.keys.sorted())")
        let (holdsFixed, holdsOriginal) = (filed.values.contains(fixedBytes), filed.values.contains(original))
        #expect(holdsFixed, "the fixed bytes are not filed")
        #expect(holdsOriginal, "the first photo is gone")
    }

    @Test("On a file system of whole-second times, a photo fixed in place in the second it was imported, its time put back, is filed by import --move before it is removed, never settled unread by its status")
    func aFixInTheSecondOfItsImportIsFiled() throws {
        let tools = try TemporaryFolder()
        defer { withExtendedLifetime(tools) {} }
        let preload = try SourceTampering.library(in: tools)
        let original = SafetyFixtures.datedJPEG(taken: SourceStatusSafetyTests.taken, seed: 5)
        // Imported, then fixed in the same second: its change time, in whole seconds, stays the same.
        let (folder, fixedBytes) = try SourceTampering.withinOneSecond(prepare: WatchSafetyTests.prepare) { folder in
            let source = try folder.write(original, to: "dump/pets/rex/IMG_0005.JPG")
            let first = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url,
                                              environment: SourceTampering.wholeSeconds(preload))
            #expect(first.outcomes.first?["status"] as? String == "imported", "\(first.standardOutput)\(first.standardError)")
            return try SourceStatusSafetyTests.fixDate(of: source)
        }

        let moved = try DossierBinary.run(["import", "dump", "--library", "Library", "--move", "--json"], in: folder.url,
                                          environment: SourceTampering.wholeSeconds(preload))

        #expect(moved.status == 0, "\(moved.standardOutput)\(moved.standardError)")
        let outcome = try #require(moved.outcomes.first)
        #expect(outcome["status"] as? String == "imported", "\(moved.standardOutput)")
        #expect(outcome["taken"] as? String == "2024-03-02T09:30:00", "\(moved.standardOutput)")
        #expect(outcome["sourceRemoved"] as? Bool == true, "\(moved.standardOutput)")
        let filed = SourceStatusSafetyTests.filedPhotos(folder)
        #expect(filed.count == 2, "\(filed.keys.sorted())")
        let (holdsFixed, holdsOriginal) = (filed.values.contains(fixedBytes), filed.values.contains(original))
        #expect(holdsFixed, "the fixed bytes are not filed")
        #expect(holdsOriginal, "the first photo is gone")
    }

    @Test("On a file system of whole-second times, a log corrected in place in the second it was imported, its time put back, is read again by the next import")
    func aLogCorrectedInTheSecondOfItsImportIsReadAgain() throws {
        let tools = try TemporaryFolder()
        defer { withExtendedLifetime(tools) {} }
        let preload = try SourceTampering.library(in: tools)
        let log = "2024-03-01 Rex weight 400 g\n2024-03-02 Rex weight 410 g\n"
        let (folder, _) = try SourceTampering.withinOneSecond(prepare: WatchSafetyTests.prepare) { folder in
            let source = try folder.write(log, to: "dump/pets/rex/weights.txt")
            let first = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url,
                                              environment: SourceTampering.wholeSeconds(preload))
            #expect(first.outcomes.first?["status"] as? String == "imported", "\(first.standardOutput)\(first.standardError)")
            // 410 g was a misreading: 416 g, the same number of bytes.
            try SourceTampering.editInPlace(source, at: log.utf8.count - 4, to: Array("6".utf8))
        }

        let again = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url,
                                          environment: SourceTampering.wholeSeconds(preload))

        #expect(again.status == 0, "\(again.standardOutput)\(again.standardError)")
        let outcome = try #require(again.outcomes.first)
        #expect(outcome["status"] as? String == "imported", "\(again.standardOutput)")
        #expect((outcome["records"] as? [String: Any])?["added"] as? Int == 1, "\(again.standardOutput)")
        #expect((outcome["records"] as? [String: Any])?["removed"] as? Int == 1, "\(again.standardOutput)")
        #expect(SourceHistorySafetyTests.weights(folder) == ["2024-03-01 400", "2024-03-02 416"])
    }

    @Test("On a file system of whole-second times, a source changed in the second it was read, its time put back, is not removed by import --move: its bytes are hashed again first")
    func aSourceChangedInTheSecondItWasReadIsKept() throws {
        let tools = try TemporaryFolder()
        defer { withExtendedLifetime(tools) {} }
        let preload = try SourceTampering.library(in: tools)
        let log = "2024-03-01 Rex weight 400 g\n"
        let (folder, moved) = try SourceTampering.withinOneSecond(prepare: WatchSafetyTests.prepare) { folder in
            let source = try folder.write(log, to: "dump/pets/rex/weights.txt")
            // Each time Dossier closes the log, another process writes another last digit of the
            // weight and puts the log's times back; in whole seconds, its change time stays.
            return try DossierBinary.run(["import", "dump", "--library", "Library", "--move", "--json"], in: folder.url,
                                         environment: SourceTampering.wholeSeconds(preload, [
                                             "DOSSIER_TEST_EDIT_PATH": source, "DOSSIER_TEST_EDIT_OFFSET": "\(log.utf8.count - 4)",
                                             "DOSSIER_TEST_EDIT_BYTES": "123456789"]))
        }

        #expect(moved.status == 0, "\(moved.standardOutput)\(moved.standardError)")
        let outcome = try #require(moved.outcomes.first)
        #expect(outcome["sourceRemoved"] as? Bool != true, "\(moved.standardOutput)")
        #expect((outcome["warnings"] as? [String])?.contains("not removed: the source changed during the import") == true,
                "\(moved.standardOutput)")
        let now = try #require(SafetyFixtures.contents(folder.path("dump/pets/rex/weights.txt")))
        #expect(now.count == log.utf8.count && now != Array(log.utf8))
    }

    @Test("A source changed after it was read (the same size and time, a new change time) is not removed by import --move")
    func aSourceChangedAfterItWasReadIsKept() throws {
        let folder = try WatchSafetyTests.prepare()
        let log = "2024-03-01 Rex weight 400 g\n"
        let source = try folder.write(log, to: "dump/pets/rex/weights.txt")
        let preload = try SourceTampering.library(in: folder)
        // Each time Dossier closes the log, another process writes another last digit of the
        // weight, and puts the log's times back: what was last read is never what is there after.
        let moved = try DossierBinary.run(["import", "dump", "--library", "Library", "--move", "--json"], in: folder.url,
                                          environment: ["LD_PRELOAD": preload, "DOSSIER_TEST_EDIT_PATH": source,
                                                        "DOSSIER_TEST_EDIT_OFFSET": "\(log.utf8.count - 4)",
                                                        "DOSSIER_TEST_EDIT_BYTES": "123456789"])

        #expect(moved.status == 0, "\(moved.standardOutput)\(moved.standardError)")
        let outcome = try #require(moved.outcomes.first)
        #expect(outcome["sourceRemoved"] as? Bool != true, "\(moved.standardOutput)")
        #expect((outcome["warnings"] as? [String])?.contains("not removed: the source changed during the import") == true,
                "\(moved.standardOutput)")
        // The source is still there, with its last bytes, which no import read yet.
        let now = try #require(SafetyFixtures.contents(source))
        #expect(now.count == log.utf8.count)
        #expect(String(decoding: now, as: UTF8.self).hasPrefix("2024-03-01 Rex weight 40"))
        #expect(now != Array(log.utf8))
    }
}
