import CImageShims
import DossierTestSupport
import Foundation
import Glibc
import Testing

/// What the disk and a file's own numbers can do to an import: a full disk under a large photo's
/// scratch files must fail that photo, not kill the process; a size a file claims must not become
/// an allocation before it is checked.
@Suite("Scratch space and the sizes files claim", .serialized)
struct ScratchAndSizeSafetyTests {
    /// A shared object that makes posix_fallocate answer EOPNOTSUPP, as it does on a file system
    /// without fallocate under a C library that passes the kernel's answer on (musl), and notes
    /// each call in the file `DOSSIER_TEST_FALLOCATE_CALLS` names. Built with the clang the Swift
    /// toolchain ships (beside `swift` on PATH), the one compiler CI is sure to have.
    static func noFallocateLibrary(in folder: TemporaryFolder) throws -> String {
        let source = try folder.write("""
            #include <errno.h>
            #include <stdio.h>
            #include <stdlib.h>

            static int unsupported(void) {
                const char *calls = getenv("DOSSIER_TEST_FALLOCATE_CALLS");
                FILE *file = calls != NULL ? fopen(calls, "a") : NULL;
                if (file != NULL) {
                    fputc('x', file);
                    fclose(file);
                }
                return EOPNOTSUPP;
            }

            int posix_fallocate(int fd, long offset, long length) { (void)fd; (void)offset; (void)length; return unsupported(); }
            int posix_fallocate64(int fd, long offset, long length) { (void)fd; (void)offset; (void)length; return unsupported(); }

            """, to: "preload/no-fallocate.c")
        let clang = try #require(toolchainClang(), "no clang beside swift on PATH")
        let library = folder.path("preload/no-fallocate.so")
        let build = Process()
        build.executableURL = URL(fileURLWithPath: clang)
        build.arguments = ["-shared", "-fPIC", "-O1", "-o", library, source]
        try build.run()
        build.waitUntilExit()
        try #require(build.terminationStatus == 0, "clang could not build the posix_fallocate stand-in")
        return library
    }

    /// The toolchain's clang: beside the real `swift` executable on PATH.
    static func toolchainClang() -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        for folder in folders {
            let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            let clang = swift.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("clang")
            if FileManager.default.isExecutableFile(atPath: clang.path) { return clang.path }
        }
        return nil
    }

    @Test("A large photo on a full disk whose file system cannot reserve space fails with ENOSPC; the process lives, nothing is left",
          .enabled(if: WatchSafetyTests.canMountTmpfs, "needs root to mount a small tmpfs for the library (CI runs as root)"))
    func fullDiskWithoutFallocate() throws {
        let folder = try TemporaryFolder()
        let photo = SafetyFixtures.largeJPEG()
        let source = try folder.write(photo, to: "dump/IMG_0001.jpg")
        let preload = try ScratchAndSizeSafetyTests.noFallocateLibrary(in: folder)
        let disk = folder.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        // Room for the library, its index and the photo's staged copy (1 MB), not for its DCT
        // coefficients (24 MB for each chroma component of 8016x6000, 96 MB for the luma), which go
        // to scratch files.
        #expect(mount("tmpfs", disk, "tmpfs", 0, "size=16m") == 0)
        defer { umount2(disk, Int32(MNT_DETACH)) }
        let calls = folder.path("fallocate-calls")

        let run = try MeasuredRun(["import", "dump", "--library", "disk/Library", "--subject", "pets/rex", "--create"],
                                  in: folder.url,
                                  environment: ["LD_PRELOAD": preload, "DOSSIER_TEST_FALLOCATE_CALLS": calls,
                                                "SWIFT_BACKTRACE": "enable=no"])

        #expect(run.signal == nil, "killed by signal \(run.signal ?? 0): \(run.standardError)")
        #expect(run.status == 1, "\(run.standardOutput) \(run.standardError)")
        let failed = run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("failed ") }
        #expect(failed.count == 1, "\(run.standardOutput)")
        #expect(failed.first?.contains("IMG_0001.jpg") == true, "\(failed)")
        #expect(failed.first?.contains("No space left on device") == true, "\(failed)")
        // The stand-in was called, so the scratch file took the way without posix_fallocate.
        #expect(FileManager.default.fileExists(atPath: calls))
        #expect(SafetyFixtures.contents(source) == photo)
        #expect(folder.files(under: "disk/Library/pets/rex/photos").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("disk/Library/.dossier/staging")).isEmpty)
    }

    @Test("A full disk stops the import and is named in --json by its code: cannot-write, ENOSPC; the source is untouched",
          .enabled(if: WatchSafetyTests.canMountTmpfs, "needs root to mount a small tmpfs for the library (CI runs as root)"))
    func fullDiskNamedByCodeInJSON() throws {
        let folder = try TemporaryFolder()
        // A notepad log bigger than the disk: its kept copy cannot be written. The kernel copies
        // it (sendfile), which fails for the copy, not for reading the source.
        var log = ""
        var generator = TestSeed().generator
        for day in 0..<200_000 {
            log += "2024-\(String(format: "%02d", day % 12 + 1))-\(String(format: "%02d", day % 28 + 1)) Rex weighed \(Int.random(in: 3000...9000, using: &generator)) g\n"
        }
        let source = try folder.write(log, to: "dump/rex.txt")
        let disk = folder.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(mount("tmpfs", disk, "tmpfs", 0, "size=2m") == 0)
        defer { umount2(disk, Int32(MNT_DETACH)) }

        let run = try MeasuredRun(["import", "dump", "--library", "disk/Library", "--subject", "pets/rex", "--create", "--json"],
                                  in: folder.url, environment: ["SWIFT_BACKTRACE": "enable=no"])

        #expect(run.signal == nil, "killed by signal \(run.signal ?? 0): \(run.standardError)")
        // The library failed, not the source: the import stops (exit 2), as for any full disk.
        #expect(run.status == 2, "\(run.standardOutput) \(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let stopped = try #require(lines.last?["libraryError"] as? [String: Any], "\(run.standardOutput)")
        #expect(stopped["code"] as? String == "cannot-write", "\(stopped)")
        #expect(stopped["cause"] as? String == "ENOSPC", "\(stopped)")
        let message = try #require(stopped["message"] as? String)
        #expect(message.hasPrefix("cannot write \(disk)/Library/.dossier/staging/") && message.hasSuffix(": No space left on device"),
                "\(message)")
        #expect(SafetyFixtures.contents(source) == Array(log.utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("disk/Library/.dossier/staging")).isEmpty)
    }

    @Test("A HEIC whose EXIF item claims the same bytes 32 times over (512 MB) is refused before any of it is read",
          SharedCorpora.required)
    func exifItemRepeatingItsBytes() throws {
        let folder = try TemporaryFolder()
        let iPhone = try Data(contentsOf: SharedCorpora.url("heif/immich-test-assets/formats/heic/IMG_2682.heic"))
        let hostile = try HostileHEIC.repeatingItem(ofType: "Exif", in: Array(iPhone), repeats: 32, padding: 16_000_000)
        let source = try folder.write(hostile, to: "dump/IMG_0001.heic")

        let run = try MeasuredRun(["import", "dump", "--library", "Library", "--subject", "pets/rex", "--create"],
                                  in: folder.url)

        #expect(run.status == 1, "\(run.standardOutput) \(run.standardError)")
        let failed = run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("failed ") }
        #expect(failed.count == 1, "\(run.standardOutput)")
        #expect(failed.first?.contains("IMG_0001.heic") == true, "\(failed)")
        #expect(failed.first?.contains("its metadata items claim 512000000 bytes; Dossier reads at most 16777216") == true,
                "\(failed)")
        // The file itself is 17 MB: nothing near the 512 MB it claims was allocated, by Dossier or libheif.
        #expect(run.peakResidentBytes < 200 << 20, "peak resident memory \(run.peakResidentBytes >> 20) MiB")
        #expect(SafetyFixtures.contents(source) == hostile)
        #expect(folder.files(under: "Library/pets/rex/photos").isEmpty)
    }

    /// The import of one photo in `dump` under pets/rex, measured.
    static func importing(_ bytes: [UInt8], as name: String) throws -> (TemporaryFolder, MeasuredRun) {
        let folder = try TemporaryFolder()
        try folder.write(bytes, to: "dump/\(name)")
        let run = try MeasuredRun(["import", "dump", "--library", "Library", "--subject", "pets/rex", "--create"],
                                  in: folder.url)
        return (folder, run)
    }

    @Test("A JPEG of 50 000 empty marker segments to keep is refused at once, not walked for seconds")
    func thousandsOfMarkerSegments() throws {
        // Orientation 6, so the photo is turned and its markers kept to be written again.
        let photo = SafetyFixtures.jpeg(orientation: 6)
        let markers = Array(repeating: [UInt8]([0xFF, 0xFE, 0x00, 0x02]), count: 50_000).flatMap { $0 }
        let hostile = Array(photo[..<2]) + markers + Array(photo[2...])
        let (folder, run) = try ScratchAndSizeSafetyTests.importing(hostile, as: "IMG_0002.jpg")

        #expect(run.status == 1, "\(run.standardOutput) \(run.standardError)")
        let failed = run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("failed ") }
        #expect(failed.count == 1, "\(run.standardOutput)")
        #expect(failed.first?.contains("IMG_0002.jpg: JPEG data is corrupt or unsupported: more than 8192 marker segments to keep") == true,
                "\(failed)")
        #expect(SafetyFixtures.contents(folder.path("dump/IMG_0002.jpg")) == hostile)
        #expect(folder.files(under: "Library/pets/rex/photos").isEmpty)
    }

    @Test("A PNG whose zTXt chunks would inflate to 1.6 GB is filed whole without inflating them")
    func inflatingTextChunks() throws {
        let hostile = HostilePNG.inflatingText(chunks: 100)
        let (folder, run) = try ScratchAndSizeSafetyTests.importing(hostile, as: "IMG_0003.png")

        #expect(run.status == 0, "\(run.standardOutput) \(run.standardError)")
        #expect(run.peakResidentBytes < 200 << 20, "peak resident memory \(run.peakResidentBytes >> 20) MiB")
        let filed = folder.files(under: "Library/pets/rex/photos")
        #expect(filed.count == 1)
        #expect(SafetyFixtures.contents(folder.path("Library/pets/rex/photos/\(filed.first ?? "")")) == hostile)
    }

    @Test("An EXIF block whose 2 730 entries share the same 32 KB is read within a budget, not copied 2 730 times")
    func exifEntriesSharingTheirBytes() throws {
        // Big-endian TIFF: IFD0 with Orientation 1, then 2 729 entries of unknown tags whose
        // values are all the same 32 000 bytes after the directory: 64 780 bytes, one APP1.
        let count = 2730, shared = 32_000
        let values = 8 + 2 + 12 * count + 4
        func bigEndian(_ value: Int, _ width: Int) -> [UInt8] {
            (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - $0))) }
        }
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8] + bigEndian(count, 2)
        tiff += bigEndian(0x0112, 2) + bigEndian(3, 2) + bigEndian(1, 4) + [0, 1, 0, 0]
        for tag in 1..<count {
            tiff += bigEndian(0x1234 + tag, 2) + bigEndian(7, 2) + bigEndian(shared, 4) + bigEndian(values, 4)
        }
        tiff += [0, 0, 0, 0] + [UInt8](repeating: 0x41, count: shared)
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        let pixels = [UInt8](repeating: 0x80, count: 64 * 48 * 3)
        var output = dossier_buffer()
        var status = dossier_status()
        let encoded = app1.withUnsafeBufferPointer { exif in
            dossier_jpeg_encode_rgb(pixels, 64, 48, 90, 2, 2, exif.baseAddress, exif.count, nil, 0, &output, &status)
        }
        try #require(encoded == 0, "\(status.code)")
        let photo = Array(UnsafeBufferPointer(start: output.data, count: output.size))
        dossier_buffer_free(&output)
        let (folder, run) = try ScratchAndSizeSafetyTests.importing(photo, as: "IMG_0004.jpg")

        #expect(run.status == 0, "\(run.standardOutput) \(run.standardError)")
        // Before libexif had a budget this import peaked at 141 MiB; a small import takes about 50.
        #expect(run.peakResidentBytes < 100 << 20, "peak resident memory \(run.peakResidentBytes >> 20) MiB")
        let filed = folder.files(under: "Library/pets/rex/photos")
        #expect(filed.count == 1)
        #expect(SafetyFixtures.contents(folder.path("Library/pets/rex/photos/\(filed.first ?? "")")) == photo)
    }
}
