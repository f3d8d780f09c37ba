import DossierCore
import DossierTestSupport
import Foundation
import Testing

/// Files filed byte for byte go in by the hundred, each fsynced before it is linked to its name,
/// its folder fsynced before the index names it: an import of them killed at any moment leaves
/// only whole files under their names, an index that names only files that are there, whole,
/// and (`--move`) no source gone whose copy the index does not name.
@Suite("An import of files filed byte for byte, killed at any moment")
struct ByteForByteKillSafetyTests {
    static let movieCount = 160

    /// Distinct movies over five years (five folders): each one's digest by its name in the dump.
    static func makeDump(in folder: TemporaryFolder) throws -> [String: String] {
        var movies: [String: String] = [:]
        for index in 0..<movieCount {
            var movie = TestMovie()
            movie.mediaBytes = 20_000 + index * 701
            let taken = Date(timeIntervalSince1970: 1_546_300_800 + Double(index % 5) * 31_622_400 + Double(index) * 3_600)
            movie.movieHeaderCreation = TestMovie.quickTimeSeconds(taken)
            let bytes = movie.bytes
            movies["VID_\(1000 + index).MOV"] = ContentDigest(of: bytes).hex
            try folder.write(bytes, to: "dump/pets/rex/VID_\(1000 + index).MOV")
        }
        #expect(Set(movies.values).count == movieCount)
        return movies
    }

    /// What the next run finds: every file under the subject is one of the movies, whole, under a
    /// name that carries its digest; every file the index names is at its name with the bytes the
    /// index says; every source `--move` removed is filed and indexed.
    static func expectConsistent(_ folder: TemporaryFolder, movies: [String: String], moved: Bool,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let digests = Set(movies.values)
        for path in folder.files(under: "Library/pets/rex") {
            let bytes = try #require(SafetyFixtures.contents(folder.path("Library/pets/rex/\(path)")), sourceLocation: sourceLocation)
            let digest = ContentDigest(of: bytes)
            #expect(digests.contains(digest.hex), "\(path): not one movie's bytes, whole", sourceLocation: sourceLocation)
            #expect((path as NSString).deletingPathExtension.hasSuffix("_" + digest.shortHex), "\(path)", sourceLocation: sourceLocation)
        }
        // Opened as the next import opens it (its journal rolled back, staging cleared).
        let layout = LibraryLayout(root: folder.url.appendingPathComponent("Library"))
        let session = try LibrarySession.open(layout, access: .existing, dryRun: false, waitForLock: true, whileWaiting: { _ in })
        defer { session.close() }
        let filed = try #require(session.index, sourceLocation: sourceLocation).contents().filed
        for row in filed {
            let bytes = SafetyFixtures.contents(folder.path("Library/\(row.path)"))
            #expect(bytes.map { ContentDigest(of: $0).hex } == row.sha256, "the index names \(row.path), which does not hold its bytes",
                    sourceLocation: sourceLocation)
        }
        guard moved else { return }
        let indexed = Set(filed.map(\.sha256))
        let left = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path("dump/pets/rex"))) ?? [])
        for (name, digest) in movies where !left.contains(name) {
            #expect(indexed.contains(digest), "\(name) was removed before its copy was indexed", sourceLocation: sourceLocation)
        }
    }

    @Test("Killed at seeded moments, with and without --move, it leaves only whole files and an index of files that are there; a re-run finishes the job",
          arguments: [false, true])
    func killedImportsStayConsistent(move: Bool) throws {
        let folder = try TemporaryFolder()
        let movies = try ByteForByteKillSafetyTests.makeDump(in: folder)
        #expect(try DossierBinary.run(["init", "--library", "Library"], in: folder.url).status == 0)
        let arguments = ["import", "--create", "dump", "--library", "Library", "--jobs", "2"] + (move ? ["--move"] : [])
        var generator = TestSeed().generator
        var filedAtKills: [Int] = []
        for round in 0..<8 {
            let filedBefore = folder.files(under: "Library/pets/rex/videos").count
            let process = DossierBinary.process(arguments, in: folder.url)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if round.isMultiple(of: 2) || filedBefore + 1 >= ByteForByteKillSafetyTests.movieCount {
                // A moment early in the run: opening the library, scanning, the first copies.
                // Slept synchronously: an async wait could be resumed late, when other tests keep
                // the cooperative threads busy.
                usleep(useconds_t(Int.random(in: 5...300, using: &generator) * 1_000))
            } else {
                // A moment in the middle of the copies, found by progress rather than by time: a
                // fast machine files all 160 before any fixed delay ends (CI did, 8 kills of 8).
                let target = Int.random(in: (filedBefore + 1)..<ByteForByteKillSafetyTests.movieCount, using: &generator)
                let deadline = Date().addingTimeInterval(60)
                while process.isRunning, Date() < deadline,
                      folder.files(under: "Library/pets/rex/videos").count < target {
                    usleep(1_000)
                }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try ByteForByteKillSafetyTests.expectConsistent(folder, movies: movies, moved: move)
            filedAtKills.append(folder.files(under: "Library/pets/rex/videos").count)
        }
        #expect(filedAtKills.contains { $0 < ByteForByteKillSafetyTests.movieCount },
                "every kill came after the import ended: give it more to do (\(filedAtKills))")
        let result = try DossierBinary.run(arguments + ["--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(folder.files(under: "Library/pets/rex/videos").count == ByteForByteKillSafetyTests.movieCount)
        try ByteForByteKillSafetyTests.expectConsistent(folder, movies: movies, moved: move)
        let layout = LibraryLayout(root: folder.url.appendingPathComponent("Library"))
        let index = try #require(try LibraryIndex.openReadOnly(layout))
        #expect(Set(try index.contents().filed.map(\.sha256)) == Set(movies.values))
        index.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier/staging")).isEmpty)
        if move { #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path("dump/pets/rex"))) ?? []).isEmpty) }
    }
}
