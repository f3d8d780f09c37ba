import DossierCore
import Foundation
import DossierTestSupport
import Testing

/// File names are bytes: a zip made on a Korean Windows machine unpacks to CP949 names, which are
/// not UTF-8. Such files are read, routed, filed and (with --move) removed like any other, and
/// shown with U+FFFD where their bytes are not UTF-8.
@Suite("Paths that are not UTF-8")
struct PathBytesSafetyTests {
    /// 레오 and 일지 in CP949.
    static let leoCP949: [UInt8] = [0xB7, 0xB9, 0xBF, 0xC0]
    static let logCP949: [UInt8] = [0xC0, 0xCF, 0xC1, 0xF6]

    /// Creates the folders and file of a path given as bytes, below `folder`.
    static func write(_ contents: [UInt8], toBytes relative: [[UInt8]], in folder: TemporaryFolder) throws {
        var path = Array(folder.path.utf8)
        for (index, component) in relative.enumerated() {
            path += [UInt8(ascii: "/")] + component
            let cPath = path.map { CChar(bitPattern: $0) } + [0]
            if index < relative.count - 1 {
                guard mkdir(cPath, 0o755) == 0 || errno == EEXIST else { throw POSIXError(.init(rawValue: errno)!) }
            } else {
                let descriptor = open(cPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
                defer { close(descriptor) }
                _ = contents.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress!, $0.count) }
            }
        }
    }

    static func exists(_ relative: [[UInt8]], in folder: TemporaryFolder) -> Bool {
        let path = Array(folder.path.utf8) + relative.flatMap { [UInt8(ascii: "/")] + $0 }
        return access(path.map { CChar(bitPattern: $0) } + [0], F_OK) == 0
    }

    @Test("A photo and a log with CP949 names, one in a CP949 folder, are filed and moved; their names show U+FFFD")
    func cp949NamesAreImported() throws {
        let folder = try TemporaryFolder()
        let photo = SafetyFixtures.jpeg(width: 64, height: 48, orientation: 1, seed: 7)
        let photoPath: [[UInt8]] = [Array("dump".utf8), Array("pets".utf8), Array("leo".utf8), PathBytesSafetyTests.leoCP949 + Array(".jpg".utf8)]
        let logPath: [[UInt8]] = [Array("dump".utf8), Array("pets".utf8), Array("leo".utf8), PathBytesSafetyTests.leoCP949, PathBytesSafetyTests.logCP949 + Array(".txt".utf8)]
        try PathBytesSafetyTests.write(photo, toBytes: photoPath, in: folder)
        try PathBytesSafetyTests.write(Array("2024-03-01 체중 45g\n".utf8), toBytes: logPath, in: folder)

        let imported = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--move", "--json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardOutput)\(imported.standardError)")
        #expect(imported.outcomes.map { $0["status"] as? String } == ["imported", "imported"])
        #expect(imported.outcomes.compactMap { $0["source"] as? String }.sorted() == [
            folder.path("dump/pets/leo/\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}.jpg"),
            folder.path("dump/pets/leo/\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}/\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}.txt"),
        ])
        #expect(!PathBytesSafetyTests.exists(photoPath, in: folder))
        #expect(!PathBytesSafetyTests.exists(logPath, in: folder))
        let photos = folder.files(under: "Library/pets/leo/photos")
        #expect(photos.count == 1)
        #expect(photos.first.flatMap { SafetyFixtures.contents(folder.path("Library/pets/leo/photos/\($0)")) } == photo)
        let records = try String(contentsOfFile: folder.path("Library/pets/leo/records/2024.jsonl"), encoding: .utf8)
        #expect(records.contains("\"text\":\"2024-03-01 체중 45g\""))
        #expect(folder.files(under: "Library/sources").count == 1)
        #expect(folder.files(under: "Library/sources").first?.hasPrefix("\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}_") == true)
    }

    @Test("A folder named on the command line in CP949 bytes is imported")
    func aNamedCP949Folder() throws {
        let folder = try TemporaryFolder()
        let logPath: [[UInt8]] = [Array("notes".utf8), PathBytesSafetyTests.leoCP949, PathBytesSafetyTests.logCP949 + Array(".txt".utf8)]
        try PathBytesSafetyTests.write(Array("2024-03-02 탈피\n".utf8), toBytes: logPath, in: folder)
        // The shell passes the name's bytes as they are; Process would send them as UTF-8.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", #"exec "$0" import "notes/$(printf '\267\271\277\300')" --subject pets/leo --create --library Library"#,
                           DossierBinary.url.path]
        shell.currentDirectoryURL = folder.url
        shell.standardOutput = FileHandle.nullDevice
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let records = try String(contentsOfFile: folder.path("Library/pets/leo/records/2024.jsonl"), encoding: .utf8)
        #expect(records.contains("\"text\":\"2024-03-02 탈피\""))
    }

    @Test("Every byte string goes to a path and back unchanged, and shows U+FFFD only for bytes that are not UTF-8")
    func pathsRoundTrip() {
        let names: [[UInt8]] = [
            [0xB7, 0xB9, 0xBF, 0xC0], Array("레오.jpg".utf8), [0x61, 0xFF, 0x62], [0xED, 0xA0, 0x80],
            Array("\u{10FF80}x".utf8), [0xE2, 0x82], [0xC0, 0xAF], Array("plain".utf8),
        ]
        for name in names {
            let path = SourcePath.string(fromFileSystem: name)
            let back = SourcePath.withFileSystemPath(path) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
            #expect(back.map { UInt8(bitPattern: $0) } == name, "\(name)")
        }
        #expect(SourcePath.displayed(SourcePath.string(fromFileSystem: [0x61, 0xFF, 0x62])) == "a\u{FFFD}b")
        #expect(SourcePath.displayed(SourcePath.string(fromFileSystem: Array("레오".utf8))) == "레오")
    }
}
