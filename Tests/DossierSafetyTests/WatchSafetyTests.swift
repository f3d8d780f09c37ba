import DossierCore
import DossierTestSupport
import Foundation
import Glibc
import Testing

/// `dossier watch` as a user leaves it running: what lands in the inbox is filed and leaves it,
/// what cannot be filed is quarantined, and nothing is lost or filed twice whatever stops it.
@Suite("The watch daemon", .serialized)
struct WatchSafetyTests {
    /// A library with pets/rex, and an inbox beside it.
    static func prepare() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
        let added = try DossierBinary.run(["subjects", "add", "pets/rex", "--name", "Rex", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        return folder
    }

    /// Writes a file outside the inbox, then moves it in, as a sync tool finishing a download does.
    static func drop(_ bytes: [UInt8], as relative: String, in folder: TemporaryFolder) throws {
        let staged = try folder.write(bytes, to: "outside/\(UUID().uuidString)")
        let target = folder.path("inbox/\(relative)")
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        #expect(rename(staged, target) == 0)
    }

    static func log(_ days: Range<Int>, name: String = "Rex") -> [UInt8] {
        Array(days.map { day in
            "2024-03-\(String(format: "%02d", day + 1)) \(name) weight \(400 + day * 3) g, ate \(day % 4 + 1) crickets\n"
        }.joined().utf8)
    }

    /// A log of `lines` days' notes over the years, each note its own, as years of a notepad are.
    static func longLog(lines: Int) -> [UInt8] {
        let words = ["ate", "slept", "shed", "basked", "hid", "soaked", "climbed", "yawned", "crickets", "mealworms",
                     "dubia", "calcium", "lamp", "branch", "moss", "restless", "calm", "twice", "again", "corner"]
        var generator = SeededGenerator(seed: UInt64(lines))
        var text = ""
        text.reserveCapacity(lines * 60)
        for line in 0..<lines {
            let day = line / 4
            let (year, dayOfYear) = (1990 + day / 336, day % 336)
            let note = (0..<Int.random(in: 2...9, using: &generator)).map { _ in words.randomElement(using: &generator)! }
            text += "\(year)-\(String(format: "%02d", dayOfYear / 28 + 1))-\(String(format: "%02d", dayOfYear % 28 + 1)) Rex "
                + "weight \(Int.random(in: 300...900, using: &generator)) g, \(note.joined(separator: " ")) #\(line)\n"
        }
        return Array(text.utf8)
    }

    /// The files left in the inbox, the daemon's lock aside.
    static func inboxFiles(_ folder: TemporaryFolder) -> [String] {
        folder.files(under: "inbox").filter { $0 != ".dossier-watch.lock" }
    }

    static func recordLines(_ folder: TemporaryFolder, subject: String = "pets/rex") -> [String] {
        folder.files(under: "Library/\(subject)/records").flatMap { file -> [Substring] in
            let text = (try? String(contentsOfFile: folder.path("Library/\(subject)/records/\(file)"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n")
        }.map(String.init)
    }

    @Test("files the photos and logs dropped into the inbox, empties it, and keeps the subject's inbox folder")
    func filesWhatLandsAndEmptiesTheInbox() async throws {
        let folder = try WatchSafetyTests.prepare()
        try FileManager.default.createDirectory(atPath: folder.path("inbox/pets/rex"), withIntermediateDirectories: true)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        for seed in 0..<3 {
            try WatchSafetyTests.drop(SafetyFixtures.jpeg(seed: seed), as: "pets/rex/2024/IMG_\(seed).JPG", in: folder)
        }
        try WatchSafetyTests.drop(WatchSafetyTests.log(0..<5), as: "dump/pets/rex/notes.txt", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 4 }, "\(daemon.text)")
        #expect(await daemon.wait { WatchSafetyTests.inboxFiles(folder).isEmpty })
        let stopped = await daemon.stop()
        #expect(stopped.status == 0)
        #expect(folder.files(under: "Library/pets/rex/photos").count == 3)
        #expect(WatchSafetyTests.recordLines(folder).count == 5)
        // Emptied folders go; the existing subject's own inbox folder stays for the next drop.
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.path("inbox/pets/rex"), isDirectory: &isFolder) && isFolder.boolValue)
        #expect(!FileManager.default.fileExists(atPath: folder.path("inbox/pets/rex/2024")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("inbox/dump")))
        let filed = daemon.events("filed").first { $0["source"]?.hasSuffix("IMG_0.JPG") == true }
        #expect(filed?["subject"] == "pets/rex")
        #expect(filed?["destination"]?.contains("/Library/pets/rex/photos/") == true)
        #expect(filed?["level"] == "info" && filed?["time"] != nil)
    }

    @Test("files again, in its next batch, a photo verify found damaged, from its original; the original stays")
    func nextBatchFilesAgainWhatVerifyFound() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try WatchSafetyTests.drop(OriginalsSafetyTests.unaligned, as: "pets/rex/IMG_0101.JPG", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        let filed = try #require(daemon.events("filed").first?["destination"])
        let original = try #require(folder.files(under: "Library/originals").first.map { folder.path("Library/originals/\($0)") })
        let (good, originalBytes) = (SafetyFixtures.contents(filed), SafetyFixtures.contents(original))
        #expect(await daemon.wait { WatchSafetyTests.inboxFiles(folder).isEmpty })
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: filed))
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 1)

        try WatchSafetyTests.drop(SafetyFixtures.jpeg(seed: 4), as: "pets/rex/IMG_0102.JPG", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 3 }, "\(daemon.text)")
        #expect(daemon.text.contains("filing again 1 damaged or missing photo that `dossier verify` found"), "\(daemon.text)")
        #expect(SafetyFixtures.contents(filed) == good)
        #expect(SafetyFixtures.contents(original) == originalBytes)
        #expect(try DossierBinary.run(["verify", "--library", "Library"], in: folder.url).status == 0)
        #expect(await daemon.stop().status == 0)
    }

    enum LivePhotoArrival: String, CaseIterable, Sendable { case together, stillFirst, movieFirst }

    @Test("files a phone's Live Photo as a pair beside the HEIC's rendition, however its halves arrive",
          SharedCorpora.required, arguments: LivePhotoArrival.allCases)
    func filesALivePhotoPair(arrival: LivePhotoArrival) async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        let heic = Array(try Data(contentsOf: SharedCorpora.url("heif/immich-test-assets/formats/heic/IMG_2682.heic")))
        var movie = TestMovie()
        movie.quickTimeMetadata = [("com.apple.quicktime.creationdate", "2019-03-21T11:04:22+0100")]
        switch arrival {
        case .together:
            try WatchSafetyTests.drop(movie.bytes, as: "pets/rex/DCIM/IMG_2682.MOV", in: folder)
            try WatchSafetyTests.drop(heic, as: "pets/rex/DCIM/IMG_2682.HEIC", in: folder)
        case .stillFirst, .movieFirst:
            // The first half filed and gone from the inbox before the second comes: the movie finds
            // its still through the index, or the still brings the movie filed alone beside it.
            let (first, second) = arrival == .stillFirst
                ? ((heic, "IMG_2682.HEIC"), (movie.bytes, "IMG_2682.MOV")) : ((movie.bytes, "IMG_2682.MOV"), (heic, "IMG_2682.HEIC"))
            try WatchSafetyTests.drop(first.0, as: "pets/rex/DCIM/\(first.1)", in: folder)
            #expect(await daemon.wait { daemon.events("filed").count == 1 && WatchSafetyTests.inboxFiles(folder).isEmpty })
            try WatchSafetyTests.drop(second.0, as: "pets/rex/DCIM/\(second.1)", in: folder)
        }
        #expect(await daemon.wait { daemon.events("filed").count == 2 }, "\(daemon.text)")
        #expect(await daemon.wait { WatchSafetyTests.inboxFiles(folder).isEmpty })
        _ = await daemon.stop()
        let filed = folder.files(under: "Library/pets/rex/photos").sorted()
        #expect(filed.count == 3, "\(filed)")
        let stems = Set(filed.map { ($0 as NSString).deletingPathExtension })
        #expect(stems.count == 1, "the HEIC, its rendition and the movie share one name: \(filed)")
        #expect(Set(filed.map { ($0 as NSString).pathExtension }) == ["heic", "jpg", "mov"])
        #expect(folder.files(under: "Library/pets/rex/videos").isEmpty)
        // The index knows the movie where it now lies: imported again, it is a duplicate of that file.
        try folder.write(movie.bytes, to: "again/IMG_2682.MOV")
        let again = try DossierBinary.run(["import", "again", "--subject", "pets/rex", "--library", "Library", "--json"],
                                          in: folder.url)
        let duplicate = try #require(again.outcomes.first)
        #expect(duplicate["status"] as? String == "duplicate")
        #expect((duplicate["destination"] as? String)?.hasSuffix(filed.first { $0.hasSuffix(".mov") } ?? "?") == true)
    }

    @Test("quarantines a corrupt photo and a log with no subject, and files the log on retry after `subjects add`")
    func quarantineAndRetry() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        let photo = SafetyFixtures.jpeg(seed: 7)
        try WatchSafetyTests.drop(SafetyFixtures.headerCut(photo), as: "pets/rex/IMG_cut.jpg", in: folder)
        try WatchSafetyTests.drop(WatchSafetyTests.log(0..<4, name: "Mochi"), as: "mochi-notes.txt", in: folder)
        #expect(await daemon.wait { daemon.events("quarantined").count == 2 }, "\(daemon.text)")
        #expect(WatchSafetyTests.inboxFiles(folder).isEmpty)
        // A file of no kind Dossier reads stops at the sniff.
        try WatchSafetyTests.drop([0x00, 0x01, 0x02, 0x03] + Array("binary".utf8), as: "pets/rex/blob.bin", in: folder)
        #expect(await daemon.wait { daemon.events("quarantined").count == 3 }, "\(daemon.text)")
        #expect(daemon.events("quarantined").last?["reason"]?.hasPrefix("not a kind of file Dossier imports") == true)
        let listedAll = try DossierBinary.run(["quarantine", "list", "--json", "--library", "Library"], in: folder.url)
        let blob = listedAll.jsonLines.first { ($0["id"] as? String)?.hasSuffix("/blob.bin") == true }
        #expect(blob?["stage"] as? String == "sniff")
        _ = try DossierBinary.run(["quarantine", "remove", try #require(blob?["id"] as? String), "--yes", "--library", "Library"], in: folder.url)
        let listed = try DossierBinary.run(["quarantine", "list", "--json", "--library", "Library"], in: folder.url)
        let entries = listed.jsonLines.sorted { ($0["id"] as? String ?? "") < ($1["id"] as? String ?? "") }
        #expect(entries.count == 2)
        let cut = try #require(entries.first)
        #expect((cut["id"] as? String)?.hasSuffix("/IMG_cut.jpg") == true)
        #expect(cut["originalPath"] as? String == folder.path("inbox/pets/rex/IMG_cut.jpg"))
        #expect(cut["stage"] as? String == "read")
        #expect((cut["reason"] as? String)?.contains("Premature end of JPEG") == true)
        #expect(cut["version"] as? String == DossierVersion.current)
        // The quarantined bytes are the source's, whole.
        let id = try #require(cut["id"] as? String)
        #expect(SafetyFixtures.contents(folder.path("Library/quarantine/\(id)")) == SafetyFixtures.headerCut(photo))
        let notes = try #require(entries.last)
        #expect(notes["stage"] as? String == "route")

        let added = try DossierBinary.run(["subjects", "add", "pets/mochi", "--name", "Mochi", "--library", "Library"], in: folder.url)
        #expect(added.status == 0, "\(added.standardError)")
        // Beside the running daemon: it holds the library only while it files.
        let retried = try DossierBinary.run(["quarantine", "retry", "--all", "--library", "Library"], in: folder.url)
        #expect(retried.status == 1, "the cut photo fails again: \(retried.standardError)")
        #expect(WatchSafetyTests.recordLines(folder, subject: "pets/mochi").count == 4)
        let after = try DossierBinary.run(["quarantine", "list", "--json", "--library", "Library"], in: folder.url)
        #expect(after.jsonLines.count == 1)
        #expect(after.jsonLines.first?["retries"] as? Int == 1)
        let removed = try DossierBinary.run(["quarantine", "remove", id, "--yes", "--library", "Library"], in: folder.url)
        #expect(removed.status == 0)
        #expect(folder.files(under: "Library/quarantine").isEmpty)
        #expect(await daemon.stop().status == 0)
    }

    @Test("stops on SIGTERM within the shutdown timeout, exit 0, with every source filed or still in the inbox")
    func sigtermStopsInTime() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--shutdown-timeout", "10"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        for seed in 0..<40 {
            try WatchSafetyTests.drop(SafetyFixtures.jpeg(width: 1200, height: 900, seed: seed), as: "pets/rex/IMG_\(seed).JPG", in: folder)
        }
        #expect(await daemon.wait { !daemon.events("filed").isEmpty })
        let stopped = await daemon.stop(with: SIGTERM)
        #expect(stopped.status == 0)
        #expect(stopped.seconds < 10, "took \(stopped.seconds) s")
        let filed = folder.files(under: "Library/pets/rex/photos").count
        #expect(filed + WatchSafetyTests.inboxFiles(folder).count == 40)
        #expect(filed == daemon.events("filed").count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier/staging")).isEmpty)
    }

    @Test("stopped with a long log under way, leaves it whole in the inbox and none of its lines filed; the next start files it once")
    func stopWithALogUnderWay() async throws {
        let folder = try WatchSafetyTests.prepare()
        let lines = 120_000
        let log = WatchSafetyTests.longLog(lines: lines)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try WatchSafetyTests.drop(log, as: "pets/rex/notes.txt", in: folder)
        // Settled (0.3 s) and well into its import, which takes seconds: the moment to stop it,
        // chosen, not waited for (the #require below says when the log has become too short).
        try await Task.sleep(for: .milliseconds(1500))
        try #require(daemon.events("filed").isEmpty, "the log was filed before the test could stop the daemon: make it longer")
        let stopped = await daemon.stop(with: SIGTERM)
        #expect(stopped.status == 0)
        #expect(SafetyFixtures.contents(folder.path("inbox/pets/rex/notes.txt")) == log)
        #expect(WatchSafetyTests.recordLines(folder).isEmpty)

        let next = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await next.wait(upTo: .seconds(240)) { next.events("filed").count == 1 }, "\(next.text)")
        #expect(await next.stop().status == 0)
        #expect(WatchSafetyTests.recordLines(folder).count == lines)
        #expect(WatchSafetyTests.inboxFiles(folder).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier/staging")).isEmpty)
    }

    @Test("when the shutdown timeout passes with a large photo under way, exits 0 and says so, the photo whole in the inbox; the next start files it once")
    func shutdownTimeoutLeavesThePhotoUnderWay() async throws {
        let folder = try WatchSafetyTests.prepare()
        let photo = SafetyFixtures.largeJPEG()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--shutdown-timeout", "0.05"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try WatchSafetyTests.drop(photo, as: "pets/rex/IMG_0001.jpg", in: folder)
        // Its turn under way: a large photo turns through scratch files in staging, for a few
        // tenths of a second that cannot stop halfway.
        let staging = folder.path("Library/.dossier/staging")
        let turning = await daemon.wait(upTo: .seconds(30), pollingEvery: .milliseconds(1)) {
            ((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).contains { $0.hasSuffix(".scratch") }
        }
        try #require(turning, "\(daemon.text)")
        let stopped = await daemon.stop(with: SIGTERM)
        #expect(stopped.status == 0)
        #expect(stopped.seconds < 1, "took \(stopped.seconds) s")
        #expect(daemon.events("stopped").contains { $0["reason"]?.contains("shutdown timeout") == true }, "\(daemon.text)")
        #expect(daemon.events("filed").isEmpty)
        #expect(SafetyFixtures.contents(folder.path("inbox/pets/rex/IMG_0001.jpg")) == photo)
        #expect(folder.files(under: "Library/pets/rex/photos").isEmpty)

        let next = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await next.wait(upTo: .seconds(60)) { next.events("filed").count == 1 }, "\(next.text)")
        #expect(await next.stop().status == 0)
        #expect(folder.files(under: "Library/pets/rex/photos").count == 1)
        #expect(WatchSafetyTests.inboxFiles(folder).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging).isEmpty)
    }

    @Test("when the shutdown timeout passes while the report after a batch waits for another report, says the batch is filed, not that files stay in the inbox")
    func shutdownTimeoutDuringTheReportSaysTheBatchIsFiled() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--report", "--shutdown-timeout", "0.5"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        // Another report holds the site: its lock is a `flock` on the site's folder.
        try FileManager.default.createDirectory(atPath: folder.path("Library/report"), withIntermediateDirectories: true)
        let site = open(folder.path("Library/report"), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(site >= 0)
        defer { close(site) }
        try #require(flock(site, LOCK_EX | LOCK_NB) == 0)
        try WatchSafetyTests.drop(Array("2024.05.01 Rex weight 55g\n".utf8), as: "pets/rex/may.txt", in: folder)
        #expect(await daemon.wait { daemon.events("report").contains { $0["reason"]?.contains("waiting for it") == true } }, "\(daemon.text)")

        let stopped = await daemon.stop(with: SIGTERM)
        #expect(stopped.status == 0)
        #expect(daemon.events("filed").count == 1, "\(daemon.text)")
        #expect(daemon.events("stopped").contains { $0["reason"] == "the shutdown timeout (0.5 seconds) passed while the report after the last batch "
            + "was written; that batch is filed, and the report is made again after the next batch (or by `dossier report`)" }, "\(daemon.text)")
        #expect(WatchSafetyTests.inboxFiles(folder).isEmpty)
    }

    @Test("killed at random moments ten times, ends with every source filed exactly once or quarantined")
    func sigkillTenTimes() async throws {
        let folder = try WatchSafetyTests.prepare()
        let photos = 30
        for seed in 0..<photos {
            try WatchSafetyTests.drop(SafetyFixtures.jpeg(width: 800, height: 600, seed: seed), as: "pets/rex/IMG_\(seed).JPG", in: folder)
        }
        for part in 0..<3 {
            try WatchSafetyTests.drop(WatchSafetyTests.log((part * 9)..<(part * 9 + 9)), as: "pets/rex/log-\(part).txt", in: folder)
        }
        try WatchSafetyTests.drop(Array("not a photo at all".utf8) + [0, 1, 2], as: "pets/rex/broken.jpg", in: folder)
        let seed = TestSeed()
        var generator = seed.generator
        for round in 0..<10 {
            let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--settle", "0.05"])
            try await Task.sleep(for: .milliseconds(Int.random(in: 50...900, using: &generator)))
            // More arrive between kills.
            try WatchSafetyTests.drop(SafetyFixtures.jpeg(width: 640, height: 480, seed: 100 + round), as: "pets/rex/late-\(round).jpg", in: folder)
            _ = await daemon.stop(with: SIGKILL)
        }
        let last = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--settle", "0.05"])
        #expect(await last.wait(upTo: .seconds(60)) { WatchSafetyTests.inboxFiles(folder).isEmpty }, "\(seed)\n\(last.text)")
        #expect(await last.stop().status == 0, "\(seed)")

        // Every photo's content once, each file whole.
        let filed = folder.files(under: "Library/pets/rex/photos")
        #expect(filed.count == photos + 10, "\(seed)")
        for path in filed {
            let bytes = try #require(SafetyFixtures.contents(folder.path("Library/pets/rex/photos/\(path)")), "\(seed)")
            #expect(((path as NSString).lastPathComponent as NSString).deletingPathExtension.hasSuffix("_" + ContentDigest(of: bytes).shortHex),
                    "\(seed)")
        }
        // Every log line once.
        let records = WatchSafetyTests.recordLines(folder)
        #expect(records.count == 27, "\(seed)")
        #expect(Set(records).count == records.count, "\(seed)")
        // The broken one in quarantine, once.
        let quarantined = folder.files(under: "Library/quarantine").filter { !$0.hasSuffix(".error.json") }
        #expect(quarantined.map { ($0 as NSString).lastPathComponent } == ["broken.jpg"], "\(seed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library/.dossier/staging")).isEmpty, "\(seed)")
    }

    @Test("keeps to two malloc arenas however many threads its batches used, so its peak memory cannot creep up over months")
    func keepsToTwoMallocArenas() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--settle", "0.05"])
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        // Batches apart, so the source threads come and go and new ones take arenas.
        for batch in 0..<4 {
            for seed in 0..<6 {
                try WatchSafetyTests.drop(SafetyFixtures.jpeg(width: 800, height: 600, seed: batch * 10 + seed),
                                          as: "pets/rex/IMG_\(batch)_\(seed).JPG", in: folder)
            }
            #expect(await daemon.wait { daemon.events("filed").count == (batch + 1) * 6 }, "\(daemon.text)")
            try await Task.sleep(for: .milliseconds(300))
        }
        let maps = try String(contentsOfFile: "/proc/\(daemon.pid)/maps", encoding: .utf8)
        #expect(await daemon.stop().status == 0)
        // Besides the main arena (the brk heap), glibc's arenas live in heaps of 64 MiB mapped at
        // 64 MiB boundaries: the part in use read-write, the rest reserved with no access.
        #expect(MallocArenaHeaps.count(inMaps: maps) == 1, "\(maps)")
    }

    @Test("shares the library with `dossier import`, and refuses a second daemon on the same inbox, naming the first")
    func sharesTheLibraryAndOwnsTheInbox() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try folder.write(SafetyFixtures.jpeg(seed: 1), to: "elsewhere/pets/rex/a.jpg")
        let imported = try DossierBinary.run(["import", "--create", "elsewhere", "--library", "Library", "--no-wait"], in: folder.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        try WatchSafetyTests.drop(SafetyFixtures.jpeg(seed: 2), as: "pets/rex/b.jpg", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 })
        let second = try DossierBinary.run(["watch", "inbox", "--library", "Library"], in: folder.url)
        #expect(second.status == 2)
        #expect(second.standardError.contains("pid \(daemon.pid)"), "\(second.standardError)")
        #expect(folder.files(under: "Library/pets/rex/photos").count == 2)
        #expect(await daemon.stop().status == 0)
    }

    @Test("with --keep, leaves sources in the inbox and does not file them twice")
    func keepLeavesSources() async throws {
        let folder = try WatchSafetyTests.prepare()
        try WatchSafetyTests.drop(SafetyFixtures.jpeg(seed: 3), as: "pets/rex/a.jpg", in: folder)
        for _ in 0..<2 {
            let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--keep"])
            #expect(await daemon.wait { daemon.events("filed").count + daemon.events("duplicate").count == 1 })
            #expect(await daemon.stop().status == 0)
        }
        #expect(WatchSafetyTests.inboxFiles(folder) == ["pets/rex/a.jpg"])
        #expect(folder.files(under: "Library/pets/rex/photos").count == 1)
    }

    @Test("refuses an inbox that holds the library, and one that is not a folder")
    func refusesBadInboxes() throws {
        let folder = try WatchSafetyTests.prepare()
        let inside = try DossierBinary.run(["watch", ".", "--library", "Library"], in: folder.url)
        #expect(inside.status == 2)
        #expect(inside.standardError.contains("must not lie inside each other"))
        let missing = try DossierBinary.run(["watch", "no-such-inbox", "--library", "Library"], in: folder.url)
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("is not a folder"))
    }

    @Test("tells systemd it is ready, feeds the watchdog, reloads on SIGHUP, says it is stopping; logs nothing while idle")
    func systemdNotifications() async throws {
        let folder = try WatchSafetyTests.prepare()
        let socketPath = folder.path("notify.sock")
        let socket = SafetyFixtures.unixSocket(at: socketPath, type: SOCK_DGRAM)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url,
                                     environment: ["NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": "400000"])
        var messages: [String] = []
        func receive(for duration: Duration) async {
            let deadline = ContinuousClock.now + duration
            var buffer = [UInt8](repeating: 0, count: 4096)
            while ContinuousClock.now < deadline {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count > 0 { messages.append(String(decoding: buffer[0..<count], as: UTF8.self)) }
            }
        }
        await receive(for: .seconds(2))
        #expect(messages.first?.hasPrefix("READY=1") == true, "\(messages)")
        // Fed at half the watchdog's 400 ms: about 10 in 2 seconds.
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 6, "\(messages)")
        // Idle: the watching line, and nothing since.
        #expect(daemon.lines.map { $0["event"] ?? "" } == ["watching"], "\(daemon.text)")
        // SIGHUP: the configuration is read again, and the inbox with it; the daemon goes on.
        kill(daemon.pid, SIGHUP)
        #expect(await daemon.wait(upTo: .seconds(5)) { !daemon.events("reload").isEmpty && !daemon.events("rescan").isEmpty })
        #expect(daemon.process.isRunning)
        kill(daemon.pid, SIGTERM)
        await receive(for: .seconds(1))
        #expect(messages.contains("STOPPING=1"))
        #expect(await daemon.stop().status == 0)
    }

    @Test("watches a linked inbox where it really is, files through a link to a file of the inbox, and follows no link out of it, to a file or a folder")
    func linksInAndToTheInbox() async throws {
        let folder = try WatchSafetyTests.prepare()
        try FileManager.default.createDirectory(atPath: folder.path("real-inbox/pets/rex"), withIntermediateDirectories: true)
        #expect(symlink(folder.path("real-inbox"), folder.path("linked-inbox")) == 0)
        let outsidePhoto = try folder.write(SafetyFixtures.jpeg(seed: 21), to: "elsewhere/kept.jpg")
        try folder.write(SafetyFixtures.jpeg(seed: 22), to: "elsewhere/folder/hidden.jpg")
        // In a hidden folder of the inbox, which the daemon passes over: only the link to it files it.
        let insidePhoto = try folder.write(SafetyFixtures.jpeg(seed: 24), to: "real-inbox/pets/rex/.picked/picked.jpg")
        #expect(symlink(insidePhoto, folder.path("real-inbox/pets/rex/link-inside.jpg")) == 0)
        #expect(symlink(outsidePhoto, folder.path("real-inbox/pets/rex/link-to-photo.jpg")) == 0)
        #expect(symlink(folder.path("elsewhere/folder"), folder.path("real-inbox/pets/rex/link-to-folder")) == 0)
        let daemon = try WatchDaemon(inbox: "linked-inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        // A folder moved in at the top: only a watch on the inbox itself, where it really is, sees it.
        #expect(try DossierBinary.run(["subjects", "add", "children/mia", "--name", "Mia", "--library", "Library"], in: folder.url).status == 0)
        try folder.write(SafetyFixtures.jpeg(seed: 23), to: "outside/children/mia/new.jpg")
        #expect(rename(folder.path("outside/children"), folder.path("linked-inbox/children")) == 0)
        #expect(await daemon.wait(upTo: .seconds(10)) { daemon.events("filed").count == 2 && daemon.events("stuck").count == 2 },
                "\(daemon.text)")
        // Time for a wrong or second filing to show: the daemon, another process, says nothing when idle.
        try await Task.sleep(for: .milliseconds(800))
        #expect(await daemon.stop().status == 0)
        #expect(daemon.events("filed").count == 2)
        // The photo behind the link inside is filed and stays where it is; only the link left the inbox.
        #expect(SafetyFixtures.contents(insidePhoto) == SafetyFixtures.jpeg(seed: 24))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder.path("real-inbox/pets/rex/link-inside.jpg"))) == nil)
        // The links out of the inbox stay, listed; nothing behind them was taken or touched.
        #expect(Set(daemon.events("stuck").compactMap { $0["source"] })
            == Set(["link-to-photo.jpg", "link-to-folder"].map { folder.path("real-inbox/pets/rex/\($0)") }), "\(daemon.text)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder.path("real-inbox/pets/rex/link-to-photo.jpg"))) == outsidePhoto)
        #expect(folder.files(under: "Library/pets/rex/photos").count == 1)
        #expect(folder.files(under: "Library/children/mia/photos").count == 1)
        #expect(SafetyFixtures.contents(outsidePhoto) == SafetyFixtures.jpeg(seed: 21))
        #expect(SafetyFixtures.contents(folder.path("elsewhere/folder/hidden.jpg")) == SafetyFixtures.jpeg(seed: 22))
    }

    @Test("files a photo whose name is not UTF-8 (CP949) and takes it out of the inbox")
    func nonUTF8Names() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        let name: [[UInt8]] = [Array("inbox".utf8), Array("pets".utf8), Array("rex".utf8),
                               PathBytesSafetyTests.leoCP949 + Array(".jpg".utf8)]
        try PathBytesSafetyTests.write(SafetyFixtures.jpeg(seed: 31), toBytes: name, in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        #expect(daemon.events("filed").first?["source"]?.hasSuffix("/pets/rex/\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}.jpg") == true)
        #expect(await daemon.wait { !PathBytesSafetyTests.exists(name, in: folder) })
        #expect(await daemon.stop().status == 0)
        #expect(folder.files(under: "Library/pets/rex/photos").count == 1)
    }

    /// Whether this machine lets the tests mount a small tmpfs (root, with CAP_SYS_ADMIN).
    static let canMountTmpfs: Bool = {
        guard getuid() == 0, let folder = try? TemporaryFolder() else { return false }
        guard mount("tmpfs", folder.path, "tmpfs", 0, "size=1m") == 0 else { return false }
        umount(folder.path)
        return true
    }()

    @Test("on a full disk, keeps every source in the inbox and files them once there is room; quarantines across file systems",
          .enabled(if: WatchSafetyTests.canMountTmpfs, "needs root to mount a small tmpfs for the library"))
    func fullDiskThenRoom() async throws {
        let folder = try WatchSafetyTests.prepare()
        let disk = folder.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(mount("tmpfs", disk, "tmpfs", 0, "size=2m") == 0)
        defer { umount2(disk, Int32(MNT_DETACH)) }
        #expect(try DossierBinary.run(["subjects", "add", "pets/rex", "--name", "Rex", "--library", "disk/Library"], in: folder.url).status == 0)
        let daemon = try WatchDaemon(inbox: "inbox", library: "disk/Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        // Photos of about 1 MB each (noise does not compress), more than the disk holds.
        let photos = (0..<4).map { SafetyFixtures.noisyJPEG(seed: $0) }
        for (index, photo) in photos.enumerated() {
            try WatchSafetyTests.drop(photo, as: "pets/rex/IMG_\(index).jpg", in: folder)
        }
        try WatchSafetyTests.drop(Array("no date here\n".utf8), as: "pets/rex/notes.txt", in: folder)
        // The disk fills at a staged photo or at the index's commit, whichever comes first.
        #expect(await daemon.wait { daemon.events("failed").contains {
            $0["reason"]?.contains("No space left") == true || $0["reason"]?.contains("disk is full") == true
        } }, "\(daemon.text)")
        // The log names the failure by its codes too, for programs that read it.
        let full = try #require(daemon.events("failed").first {
            $0["reason"]?.contains("No space left") == true || $0["reason"]?.contains("disk is full") == true
        })
        #expect(full["cause"] == "ENOSPC" || full["cause"] == "SQLITE 13", "\(full)")
        let filedBefore = daemon.events("filed").count
        #expect(filedBefore < 4)
        // Only what was filed (and indexed) left the inbox.
        #expect(WatchSafetyTests.inboxFiles(folder).count == 5 - filedBefore)
        // Nothing partial in the library: every photo there is whole (one linked in before the
        // index's commit failed may be there too; the retry adopts it).
        for path in folder.files(under: "disk/Library/pets/rex/photos") {
            let bytes = try #require(SafetyFixtures.contents(folder.path("disk/Library/pets/rex/photos/\(path)")))
            #expect(photos.contains(bytes), "\(path) is not one of the photos, whole")
        }
        #expect(mount("tmpfs", disk, "tmpfs", UInt(MS_REMOUNT), "size=64m") == 0)
        // The retry comes after a pause of 5 seconds, or 30 if a first retry failed too.
        #expect(await daemon.wait(upTo: .seconds(45)) { WatchSafetyTests.inboxFiles(folder).isEmpty }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        // The batch tried again is only what was not filed the first time: nothing said stuck.
        #expect(daemon.events("stuck").isEmpty, "\(daemon.text)")
        let filed = folder.files(under: "disk/Library/pets/rex/photos")
        #expect(filed.count == 4)
        #expect(Set(filed.compactMap { SafetyFixtures.contents(folder.path("disk/Library/pets/rex/photos/\($0)")) }) == Set(photos))
        // The text with no dated entry was copied across file systems into the quarantine, whole.
        let quarantined = folder.files(under: "disk/Library/quarantine").filter { !$0.hasSuffix(".error.json") }
        #expect(quarantined.map { ($0 as NSString).lastPathComponent } == ["notes.txt"])
        #expect(SafetyFixtures.contents(folder.path("disk/Library/quarantine/\(quarantined.first ?? "")")) == Array("no date here\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("disk/Library/.dossier/staging")).isEmpty)
    }

    @Test("waits for an inbox that is unmounted, and takes what the file system mounted again holds",
          .enabled(if: WatchSafetyTests.canMountTmpfs, "needs root to mount a tmpfs as the inbox"))
    func unmountedInboxIsWaitedFor() async throws {
        let folder = try WatchSafetyTests.prepare()
        let inbox = folder.path("inbox")
        #expect(mount("tmpfs", inbox, "tmpfs", 0, "size=8m") == 0)
        defer { umount2(inbox, Int32(MNT_DETACH)) }
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        // Written in place: the inbox is a file system of its own, a rename from outside cannot reach it.
        try folder.write(SafetyFixtures.jpeg(seed: 41), to: "inbox/pets/rex/a.jpg")
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        // Unmounted: the empty folder beneath shows; nothing is read as deleted, nothing happens.
        // The second unmounted is the scenario (the daemon meets the bare folder), not a wait.
        #expect(umount2(inbox, Int32(MNT_DETACH)) == 0)
        try await Task.sleep(for: .seconds(1))
        // Mounted again (another file system), and a file written there before the daemon looks.
        #expect(mount("tmpfs", inbox, "tmpfs", 0, "size=8m") == 0)
        try folder.write(SafetyFixtures.jpeg(seed: 42), to: "inbox/pets/rex/b.jpg")
        #expect(await daemon.wait(upTo: .seconds(15)) { daemon.events("filed").count == 2 }, "\(daemon.text)")
        // And watched there: a file dropped afterwards is seen at once.
        try folder.write(SafetyFixtures.jpeg(seed: 43), to: "inbox/pets/rex/c.jpg")
        #expect(await daemon.wait(upTo: .seconds(5)) { daemon.events("filed").count == 3 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        #expect(folder.files(under: "Library/pets/rex/photos").count == 3)
    }

    @Test("a sidecar that settles before its photo waits in the inbox, never quarantined, and is filed beside the photo once it comes")
    func sidecarWaitsForItsPhoto() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        let aae = Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>adjustmentBaseVersion</key>
            \t<integer>0</integer>
            \t<key>adjustmentFormatIdentifier</key>
            \t<string>com.apple.photo</string>
            </dict>
            </plist>

            """.utf8)
        // The small sidecar is whole long before its photo is.
        try WatchSafetyTests.drop(aae, as: "pets/rex/IMG_0001.AAE", in: folder)
        #expect(await daemon.wait { !daemon.events("pending").isEmpty }, "\(daemon.text)")
        #expect(daemon.events("quarantined").isEmpty, "\(daemon.text)")
        #expect(WatchSafetyTests.inboxFiles(folder) == ["pets/rex/IMG_0001.AAE"])
        let photo = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/pets/leo/IMG_0001.JPG")))
        try WatchSafetyTests.drop(photo, as: "pets/rex/IMG_0001.JPG", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 2 }, "\(daemon.text)")
        #expect(await daemon.wait(upTo: .seconds(5)) { WatchSafetyTests.inboxFiles(folder).isEmpty }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        let filed = folder.files(under: "Library/pets/rex/photos").sorted()
        #expect(filed.count == 2)
        #expect(filed.map { ($0 as NSString).deletingPathExtension }.count == 2
            && Set(filed.map { ($0 as NSString).deletingPathExtension }).count == 1, "\(filed)")
        #expect(Set(filed.map { ($0 as NSString).pathExtension }) == ["aae", "jpg"])
        #expect(daemon.events("quarantined").isEmpty)
        #expect(folder.files(under: "Library/quarantine").isEmpty)
    }

    @Test("a report written into the watched inbox is passed over: none of its pages or its stylesheet is quarantined or read as records")
    func reportSiteInTheInboxIsPassedOver() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        let report = try DossierBinary.run(["report", "--library", "Library", "--out", "inbox/site"], in: folder.url)
        #expect(report.status == 0, "\(report.standardError)")
        #expect(await daemon.wait { !daemon.events("passed-over").isEmpty }, "\(daemon.text)")
        #expect(daemon.events("passed-over").first?["source"] == folder.path("inbox/site"))
        // A photo dropped after the report settles after its pages: once it is filed, they were looked at.
        let photo = Array(try Data(contentsOf: DossierBinary.packageRoot.appendingPathComponent("Samples/pets/leo/IMG_0001.JPG")))
        try WatchSafetyTests.drop(photo, as: "pets/rex/IMG_0001.JPG", in: folder)
        #expect(await daemon.wait { !daemon.events("filed").isEmpty }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        #expect(daemon.events("quarantined").isEmpty, "\(daemon.text)")
        #expect(daemon.events("filed").map { $0["source"] } == [folder.path("inbox/pets/rex/IMG_0001.JPG")])
        #expect(folder.files(under: "Library/quarantine").isEmpty)
        #expect(WatchSafetyTests.recordLines(folder).isEmpty)
        let problems = try DossierBinary.run(["problems", "--json", "--library", "Library"], in: folder.url)
        #expect(problems.jsonLines.isEmpty, "\(problems.standardOutput)")
        // The site is whole where the report wrote it.
        let site = folder.files(under: "inbox/site")
        #expect(site.contains("index.html") && site.contains("assets/report.css") && site.contains("pets/rex/index.html"), "\(site)")
    }
}
