import CImageShims
import DossierCore
import DossierPhotos
import Foundation
import DossierTestSupport
import Testing

@Suite("An import killed at any moment")
struct KillSafetyTests {
    static let photoCount = 24

    /// Distinct sideways JPEGs that need the re-encoding path (469 is not whole MCUs), so each
    /// takes long enough for kills to land mid-import.
    static func makeDump(in folder: TemporaryFolder) throws {
        for index in 0..<photoCount {
            let width = 640, height = 469
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            for position in 0..<(width * height) {
                pixels[position * 3] = UInt8((position % width + index * 9) & 0xFF)
                pixels[position * 3 + 1] = UInt8((position / width + index * 5) & 0xFF)
                pixels[position * 3 + 2] = UInt8(index * 10)
            }
            // EXIF with Orientation 6, big-endian, one IFD0 entry.
            let app1: [UInt8] = Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
            var output = dossier_buffer()
            var status = dossier_status()
            let result = pixels.withUnsafeBufferPointer { rgb in
                app1.withUnsafeBufferPointer { exif in
                    dossier_jpeg_encode_rgb(rgb.baseAddress, Int32(width), Int32(height), 90, 2, 2, exif.baseAddress,
                                            exif.count, nil, 0, &output, &status)
                }
            }
            #expect(result == 0)
            try folder.write(Array(UnsafeBufferPointer(start: output.data, count: output.size)),
                             to: "dump/pets/rex/IMG_\(1000 + index).JPG")
            dossier_buffer_free(&output)
        }
    }

    /// Every file in the subject folder is whole: it decodes, and its name carries its own hash.
    static func expectOnlyWholeFiles(in folder: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for path in folder.files(under: "Library/pets/rex") {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/pets/rex/\(path)"))))
            let name = (path as NSString).deletingPathExtension
            #expect(name.hasSuffix("_" + ContentDigest(of: bytes).shortHex), "\(path)", sourceLocation: sourceLocation)
            #expect(throws: Never.self, "\(path)", sourceLocation: sourceLocation) { try JPEGCodec.validate(bytes) }
        }
    }

    @Test("leaves only whole files, and a re-run finishes the job with nothing left in staging")
    func killedImportsLeaveOnlyWholeFiles() async throws {
        let folder = try TemporaryFolder()
        try KillSafetyTests.makeDump(in: folder)
        let seed = TestSeed()
        var generator = seed.generator
        for _ in 0..<6 {
            let process = DossierBinary.process(["import", "--create", "dump", "--library", "Library", "--jobs", "2"], in: folder.url)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...400, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try KillSafetyTests.expectOnlyWholeFiles(in: folder)
        }
        let result = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0)
        let statuses = Set(result.outcomes.compactMap { $0["status"] as? String })
        #expect(statuses.isSubset(of: ["imported", "duplicate"]))
        #expect(folder.files(under: "Library/pets/rex/photos").count == KillSafetyTests.photoCount)
        try KillSafetyTests.expectOnlyWholeFiles(in: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier/staging")).isEmpty)
        let again = try DossierBinary.run(["import", "--create", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(again.summary?["duplicate"] as? Int == KillSafetyTests.photoCount)
    }

    @Test("killed while it files damaged copies again, every name holds the damaged or the good bytes whole, and a re-run mends them all")
    func killedRefilingLosesNothing() async throws {
        let folder = try TemporaryFolder()
        try KillSafetyTests.makeDump(in: folder)
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url).status == 0)
        let names = folder.files(under: "Library/pets/rex/photos")
        #expect(names.count == KillSafetyTests.photoCount)
        var good: [String: [UInt8]] = [:], damaged: [String: [UInt8]] = [:]
        for name in names {
            let path = folder.path("Library/pets/rex/photos/\(name)")
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            good[name] = bytes
            bytes.replaceSubrange(400..<404, with: [0, 1, 2, 3])
            damaged[name] = bytes
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        var generator = TestSeed().generator
        for _ in 0..<6 {
            let process = DossierBinary.process(["import", "dump", "--library", "Library", "--jobs", "2"], in: folder.url)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...400, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // Never nothing under a name, never a part: the damaged bytes or the good ones.
            for name in names {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/pets/rex/photos/\(name)")))
                #expect(Array(bytes) == good[name] || Array(bytes) == damaged[name], "\(name)")
            }
        }
        let result = try DossierBinary.run(["import", "dump", "--library", "Library", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardOutput)")
        for name in names {
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/pets/rex/photos/\(name)")))) == good[name])
        }
        // Every damaged copy kept aside is whole too.
        for path in folder.files(under: "Library/damaged") {
            let name = path.split(separator: "/").dropFirst(4).joined(separator: "/")
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("Library/damaged/\(path)")))) == damaged[name], "\(path)")
        }
        #expect(!folder.files(under: "Library/damaged").isEmpty)
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
    }
}
