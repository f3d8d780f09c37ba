import DossierCore
import DossierTestSupport
import DossierWatch
import Foundation
import Glibc
import Testing

/// `dossier watch` in the setups people really run it in: the inbox and the library one disk
/// mounted twice, a library drive unplugged, a library moved into the inbox, files it cannot
/// read. It trusts what is on the disk, never a path.
@Suite("The watch daemon trusts substance, not paths", .serialized)
struct WatchIdentitySafetyTests {
    /// Every file below the folder, with its bytes: what must come out of a run unchanged.
    static func snapshot(_ folder: TemporaryFolder, _ relative: String) -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: folder.files(under: relative).map {
            ($0, SafetyFixtures.contents(folder.path("\(relative)/\($0)")) ?? [])
        })
    }

    /// A library at `library` holding a photo and a log of pets/rex, filed from `from`.
    static func fileAPhotoAndALog(into library: String, from dump: String, seed: Int, in folder: TemporaryFolder) throws {
        try folder.write(SafetyFixtures.jpeg(seed: seed), to: "\(dump)/pets/rex/a.jpg")
        try folder.write("2024-03-01 Rex weight 400 g\n", to: "\(dump)/pets/rex/log.txt")
        #expect(try DossierBinary.run(["import", "--create", dump, "--library", library], in: folder.url).status == 0)
    }

    @Test("refuses to start on the Docker layout, the inbox and the library one folder mounted twice, and touches nothing",
          .enabled(if: LibraryIdentitySafetyTests.canBindMount, "needs root and mount --bind (CI has both)"))
    func refusesTheLibraryMountedInsideTheInbox() throws {
        let folder = try TemporaryFolder()
        // -v /srv/x:/inbox -v /srv/x/Library:/library
        try folder.write(SafetyFixtures.jpeg(seed: 1), to: "srv/x/dump/pets/rex/a.jpg")
        #expect(try DossierBinary.run(["import", "--create", "srv/x/dump", "--library", "srv/x/Library"], in: folder.url).status == 0)
        try folder.write(SafetyFixtures.jpeg(seed: 2), to: "srv/x/pets/rex/b.jpg")
        try LibraryIdentitySafetyTests.bindMount(folder.path("srv/x"), at: folder.path("inbox"))
        defer { umount2(folder.path("inbox"), Int32(MNT_DETACH)) }
        try LibraryIdentitySafetyTests.bindMount(folder.path("srv/x/Library"), at: folder.path("library"))
        defer { umount2(folder.path("library"), Int32(MNT_DETACH)) }
        let before = WatchIdentitySafetyTests.snapshot(folder, "srv/x")

        let refused = try DossierBinary.run(["watch", "inbox", "--library", "library"], in: folder.url)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("must not lie inside each other (the library lies inside the inbox)"),
                "\(refused.standardError)")
        // And the library inside the inbox's own mount, named through the other: the same.
        let inside = try DossierBinary.run(["watch", "inbox", "--library", "srv/x/Library"], in: folder.url)
        #expect(inside.status == 2)
        #expect(inside.standardError.contains("must not lie inside each other"), "\(inside.standardError)")
        let within = try DossierBinary.run(["watch", "library/pets", "--library", "srv/x/Library"], in: folder.url)
        #expect(within.status == 2)
        #expect(within.standardError.contains("the inbox lies inside the library"), "\(within.standardError)")
        #expect(WatchIdentitySafetyTests.snapshot(folder, "srv/x") == before)
    }

    @Test("refuses an inbox that is a folder of the library, or holds one, mounted there; takes nothing of one mounted while it runs",
          .enabled(if: LibraryIdentitySafetyTests.canBindMount, "needs root and mount --bind (CI has both)"))
    func refusesAFolderOfTheLibraryMountedAsOrInTheInbox() async throws {
        let folder = try WatchSafetyTests.prepare()
        try WatchIdentitySafetyTests.fileAPhotoAndALog(into: "Library", from: "dump", seed: 8, in: folder)
        let before = WatchIdentitySafetyTests.snapshot(folder, "Library")
        // The library's pets folder as the inbox itself, then as a folder in the inbox.
        try LibraryIdentitySafetyTests.bindMount(folder.path("Library/pets"), at: folder.path("pets-inbox"))
        defer { umount2(folder.path("pets-inbox"), Int32(MNT_DETACH)) }
        let asInbox = try DossierBinary.run(["watch", "pets-inbox", "--library", "Library"], in: folder.url)
        #expect(asInbox.status == 2)
        #expect(asInbox.standardError.contains("(the inbox lies inside the library)"), "\(asInbox.standardError)")
        try LibraryIdentitySafetyTests.bindMount(folder.path("Library/pets"), at: folder.path("inbox/shared"))
        let inInbox = try DossierBinary.run(["watch", "inbox", "--library", "Library"], in: folder.url)
        #expect(inInbox.status == 2)
        #expect(inInbox.standardError.contains("(the inbox holds the library, or a folder of it, at \(folder.path("inbox/shared")))"),
                "\(inInbox.standardError)")
        #expect(umount2(folder.path("inbox/shared"), Int32(MNT_DETACH)) == 0)
        // Mounted while the daemon runs: its profiles, year files and quarantine are never taken.
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try LibraryIdentitySafetyTests.bindMount(folder.path("Library/pets"), at: folder.path("inbox/shared"))
        defer { umount2(folder.path("inbox/shared"), Int32(MNT_DETACH)) }
        try LibraryIdentitySafetyTests.bindMount(folder.path("Library/config"), at: folder.path("inbox/config-view"))
        defer { umount2(folder.path("inbox/config-view"), Int32(MNT_DETACH)) }
        kill(daemon.pid, SIGHUP)
        #expect(await daemon.wait { daemon.events("passed-over").count == 2 }, "\(daemon.text)")
        try WatchSafetyTests.drop(SafetyFixtures.jpeg(seed: 9), as: "pets/rex/b.jpg", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        // Time for a wrong or second filing to show: the daemon, another process, says nothing when idle.
        try await Task.sleep(for: .milliseconds(800))
        #expect(await daemon.stop().status == 0)
        #expect(daemon.events("quarantined").isEmpty && daemon.events("duplicate").isEmpty && daemon.events("stuck").isEmpty,
                "\(daemon.text)")
        let after = WatchIdentitySafetyTests.snapshot(folder, "Library")
        #expect(after.filter { before.keys.contains($0.key) } == before)
        #expect(folder.files(under: "Library/quarantine").isEmpty)
    }

    @Test("refuses an inbox holding the library through a symbolic link to it, and never walks a link into the library")
    func refusesTheLibraryReachedThroughALink() async throws {
        let folder = try WatchSafetyTests.prepare()
        #expect(symlink(folder.path("inbox"), folder.path("inbox-link")) == 0)
        let refused = try DossierBinary.run(["watch", "inbox-link/..", "--library", "Library"], in: folder.url)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("must not lie inside each other"), "\(refused.standardError)")
        // A link inside the inbox to the library's own folders is passed by, as every folder link is.
        try folder.write(SafetyFixtures.jpeg(seed: 3), to: "dump/pets/rex/a.jpg")
        #expect(try DossierBinary.run(["import", "--create", "dump", "--library", "Library"], in: folder.url).status == 0)
        #expect(symlink(folder.path("Library/pets"), folder.path("inbox/pets")) == 0)
        let before = WatchIdentitySafetyTests.snapshot(folder, "Library")
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        // Time for a wrong or second filing to show: the daemon, another process, says nothing when idle.
        try await Task.sleep(for: .milliseconds(800))
        #expect(await daemon.stop().status == 0)
        #expect(daemon.events("filed").isEmpty && daemon.events("duplicate").isEmpty && daemon.events("quarantined").isEmpty)
        #expect(WatchIdentitySafetyTests.snapshot(folder, "Library").filter { !$0.key.hasPrefix("quarantine") } == before)
    }

    @Test("passes over the library mounted into the inbox while it runs, saying so once, and files the rest",
          .enabled(if: LibraryIdentitySafetyTests.canBindMount, "needs root and mount --bind (CI has both)"))
    func passesOverTheLibraryMountedWhileRunning() async throws {
        let folder = try WatchSafetyTests.prepare()
        try WatchIdentitySafetyTests.fileAPhotoAndALog(into: "Library", from: "dump", seed: 4, in: folder)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        let before = WatchIdentitySafetyTests.snapshot(folder, "Library")
        try LibraryIdentitySafetyTests.bindMount(folder.path("Library"), at: folder.path("inbox/backup"))
        defer { umount2(folder.path("inbox/backup"), Int32(MNT_DETACH)) }
        try WatchSafetyTests.drop(SafetyFixtures.jpeg(seed: 5), as: "pets/rex/b.jpg", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        kill(daemon.pid, SIGHUP)
        #expect(await daemon.wait { daemon.events("rescan").count >= 1 })
        // Time for a wrong or second filing to show: the daemon, another process, says nothing when idle.
        try await Task.sleep(for: .milliseconds(800))
        #expect(await daemon.stop().status == 0)
        let passed = daemon.events("passed-over")
        #expect(passed.count == 1, "\(daemon.text)")
        #expect(passed.first?["source"] == folder.path("inbox/backup"))
        #expect(daemon.events("duplicate").isEmpty && daemon.events("quarantined").isEmpty, "\(daemon.text)")
        var after = WatchIdentitySafetyTests.snapshot(folder, "Library")
        #expect(after.keys.filter { !before.keys.contains($0) }.count == 1, "only b.jpg is new")
        after = after.filter { before.keys.contains($0.key) }
        #expect(after == before)
    }

    @Test("a Dossier library moved into the inbox is passed over and said once; nothing of it is filed or quarantined")
    func aLibraryDroppedIntoTheInboxIsLeftAlone() async throws {
        let folder = try WatchSafetyTests.prepare()
        try WatchIdentitySafetyTests.fileAPhotoAndALog(into: "OldLibrary", from: "old", seed: 6, in: folder)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        let old = WatchIdentitySafetyTests.snapshot(folder, "OldLibrary")
        #expect(rename(folder.path("OldLibrary"), folder.path("inbox/OldLibrary")) == 0)
        try WatchSafetyTests.drop(SafetyFixtures.jpeg(seed: 7), as: "pets/rex/b.jpg", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        // Time for a wrong or second filing to show: the daemon, another process, says nothing when idle.
        try await Task.sleep(for: .milliseconds(800))
        #expect(await daemon.stop().status == 0)
        #expect(daemon.events("passed-over").map { $0["source"] } == [folder.path("inbox/OldLibrary")], "\(daemon.text)")
        #expect(daemon.events("quarantined").isEmpty)
        #expect(WatchIdentitySafetyTests.snapshot(folder, "inbox/OldLibrary") == old)
        #expect(folder.files(under: "Library/quarantine").isEmpty)
    }

    @Test("refuses to start without a library and never makes one")
    func neverMakesALibrary() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("usb"), withIntermediateDirectories: true)
        let refused = try DossierBinary.run(["watch", "inbox", "--library", "usb/Dossier"], in: folder.url)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("there is no library at \(folder.path("usb/Dossier"))"), "\(refused.standardError)")
        #expect(refused.standardError.contains("`dossier watch` never makes one"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("usb")).isEmpty)
    }

    @Test("while its library is moved away, or another is in its place, files nothing, keeps the inbox, says so once; files when it is back")
    func waitsForItsLibrary() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        // The drive unplugged: the mount point left empty.
        #expect(rename(folder.path("Library"), folder.path("Library-away")) == 0)
        try FileManager.default.createDirectory(atPath: folder.path("Library"), withIntermediateDirectories: true)
        let photos = (0..<2).map { SafetyFixtures.jpeg(seed: 10 + $0) }
        for (index, photo) in photos.enumerated() {
            try WatchSafetyTests.drop(photo, as: "pets/rex/IMG_\(index).jpg", in: folder)
        }
        #expect(await daemon.wait { !daemon.events("library-gone").isEmpty }, "\(daemon.text)")
        // Longer than the daemon's look for its library (every 2 s): time for a wrong filing to show.
        try await Task.sleep(for: .seconds(3))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("Library")).isEmpty, "nothing made on the bare mount point")
        #expect(WatchSafetyTests.inboxFiles(folder).count == 2)
        // Another library in its place: not the one it files into.
        #expect(try DossierBinary.run(["init", "Library"], in: folder.url).status == 0)
        // As above: time for a filing into the wrong library to show.
        try await Task.sleep(for: .seconds(3))
        #expect(WatchSafetyTests.inboxFiles(folder).count == 2)
        #expect(folder.files(under: "Library/pets").isEmpty)
        #expect(daemon.events("library-gone").count == 1, "said once: \(daemon.text)")
        #expect(daemon.events("library-gone").first?["reason"]?.contains("there is no library at") == true)
        // Back.
        try FileManager.default.removeItem(atPath: folder.path("Library"))
        #expect(rename(folder.path("Library-away"), folder.path("Library")) == 0)
        #expect(await daemon.wait { daemon.events("filed").count == 2 && WatchSafetyTests.inboxFiles(folder).isEmpty }, "\(daemon.text)")
        #expect(daemon.events("library-back").count == 1)
        #expect(await daemon.stop().status == 0)
        let filed = daemon.events("filed").compactMap { $0["source"] }.sorted()
        #expect(filed == (0..<2).map { folder.path("inbox/pets/rex/IMG_\($0).jpg") })
        #expect(folder.files(under: "Library/pets/rex/photos").count == 2)
    }

    @Test("stops at once on SIGTERM while it waits for its library, every inbox file where it was")
    func stopsWhileWaitingForItsLibrary() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        #expect(rename(folder.path("Library"), folder.path("Library-away")) == 0)
        let photo = SafetyFixtures.jpeg(seed: 12)
        try WatchSafetyTests.drop(photo, as: "pets/rex/IMG_1.jpg", in: folder)
        #expect(await daemon.wait { !daemon.events("library-gone").isEmpty }, "\(daemon.text)")
        let stopped = await daemon.stop(with: SIGTERM)
        #expect(stopped.status == 0)
        #expect(stopped.seconds < 2, "took \(stopped.seconds) s")
        #expect(SafetyFixtures.contents(folder.path("inbox/pets/rex/IMG_1.jpg")) == photo)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library")))
    }

    @Test("an index deleted while it runs is rebuilt before the next batch: nothing already filed is filed twice")
    func aDeletedIndexIsRebuilt() async throws {
        let folder = try WatchSafetyTests.prepare()
        for seed in 0..<5 { try folder.write(SafetyFixtures.jpeg(seed: 20 + seed), to: "inbox/pets/rex/IMG_\(seed).jpg") }
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, arguments: ["--keep"])
        #expect(await daemon.wait { daemon.events("filed").count == 5 }, "\(daemon.text)")
        try FileManager.default.removeItem(atPath: folder.path("Library/.dossier/index.sqlite"))
        // Touched (a sync tool setting times): their dates, taken from the file's time, change.
        for seed in 0..<5 {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_500_000_000 + Double(seed))],
                                                  ofItemAtPath: folder.path("inbox/pets/rex/IMG_\(seed).jpg"))
        }
        #expect(await daemon.wait { daemon.events("duplicate").count == 5 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        #expect(folder.files(under: "Library/pets/rex/photos").count == 5)
        let rebuilt = daemon.events("library")
        #expect(rebuilt.count == 1 && rebuilt.first?["reason"]?.contains("its index was missing; rebuilt it") == true, "\(daemon.text)")
    }

    @Test("a damaged file whose name is too long for its note is quarantined under a shortened name, its note naming it whole")
    func aLongNameIsQuarantined() async throws {
        let folder = try WatchSafetyTests.prepare()
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        // 82 Korean characters: 246 bytes, 9 short of the file system's limit, and no room for `.error.json`.
        let name = String(repeating: "레오의사진", count: 16) + "가나.jpg"
        #expect(name.utf8.count == 250)
        let damaged = Array(SafetyFixtures.jpeg(seed: 30).prefix(300))
        try WatchSafetyTests.drop(damaged, as: "pets/rex/\(name)", in: folder)
        #expect(await daemon.wait { daemon.events("quarantined").count == 1 }, "\(daemon.text)")
        #expect(WatchSafetyTests.inboxFiles(folder).isEmpty)
        #expect(await daemon.stop().status == 0)
        let listed = try DossierBinary.run(["quarantine", "list", "--json", "--library", "Library"], in: folder.url)
        let entry = try #require(listed.jsonLines.first)
        let id = try #require(entry["id"] as? String)
        #expect(entry["originalPath"] as? String == folder.path("inbox/pets/rex/\(name)"))
        let shortName = (id as NSString).lastPathComponent
        #expect(shortName.utf8.count + ".error.json".utf8.count <= 255)
        #expect(shortName.hasPrefix("레오의사진") && shortName.hasSuffix(".jpg") && shortName.contains("~"))
        #expect(SafetyFixtures.contents(folder.path("Library/quarantine/\(id)")) == damaged)
    }

    @Test("quarantines a link to a damaged file of the inbox as a copy of its bytes, and lists a link that leads nowhere as stuck")
    func linksInTheInboxAreQuarantinedOrListed() async throws {
        let folder = try WatchSafetyTests.prepare()
        let damaged = Array(SafetyFixtures.jpeg(seed: 31).prefix(200))
        // In hidden folders of the inbox, which the daemon passes over: only the links lead there.
        let target = try folder.write(damaged, to: "inbox/.elsewhere/damaged.jpg")
        let missing = folder.path("inbox/.elsewhere/nothing.jpg")
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        try FileManager.default.createDirectory(atPath: folder.path("inbox/pets/rex"), withIntermediateDirectories: true)
        #expect(symlink(target, folder.path("inbox/pets/rex/linked.jpg")) == 0)
        #expect(symlink(missing, folder.path("inbox/pets/rex/dangling.jpg")) == 0)
        #expect(symlink("looping.jpg", folder.path("inbox/pets/rex/looping.jpg")) == 0)
        #expect(await daemon.wait { daemon.events("quarantined").count == 1 && daemon.events("stuck").count == 2 }, "\(daemon.text)")
        // The link's target is untouched; the link itself left the inbox.
        #expect(SafetyFixtures.contents(target) == damaged)
        #expect(SourcePath.status(folder.path("inbox/pets/rex/linked.jpg"), followingLinks: false) == nil)
        let listed = try DossierBinary.run(["quarantine", "list", "--json", "--library", "Library"], in: folder.url)
        let quarantined = try #require(listed.jsonLines.first { $0["stuck"] == nil })
        #expect(SafetyFixtures.contents(folder.path("Library/quarantine/\(quarantined["id"] as? String ?? "")")) == damaged)
        let stuck = listed.jsonLines.filter { $0["stuck"] as? Bool == true }
        #expect(stuck.compactMap { $0["originalPath"] as? String }.sorted()
            == [folder.path("inbox/pets/rex/dangling.jpg"), folder.path("inbox/pets/rex/looping.jpg")])
        #expect((stuck.first?["reason"] as? String)?.contains("it is a link to \(missing), which cannot be read") == true,
                "\(stuck)")
        #expect((stuck.last?["reason"] as? String)?.contains("leads back to itself") == true, "\(stuck)")
        let text = try DossierBinary.run(["quarantine", "list", "--library", "Library"], in: folder.url)
        #expect(text.standardOutput.contains("stuck: \(folder.path("inbox/pets/rex/dangling.jpg"))"))
        #expect(text.standardOutput.contains("2 stuck in the inbox"))

        // Its target comes back: on SIGHUP the link is tried again, filed (as a damaged photo: quarantined), and no longer listed.
        try folder.write(SafetyFixtures.jpeg(seed: 32), to: "inbox/.elsewhere/nothing.jpg")
        kill(daemon.pid, SIGHUP)
        #expect(await daemon.wait { daemon.events("filed").count == 1 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        let after = try DossierBinary.run(["quarantine", "list", "--json", "--library", "Library"], in: folder.url)
        #expect(after.jsonLines.filter { $0["stuck"] as? Bool == true }.compactMap { $0["originalPath"] as? String }
            == [folder.path("inbox/pets/rex/looping.jpg")])
    }

    /// Runs the binary as `nobody`: root reads every file whatever its permissions.
    static let asNobody: [String]? = {
        guard getuid() == 0 else { return [] }
        return FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : nil
    }()

    @Test("a file it cannot read is listed as stuck, and filed as soon as it is made readable",
          .enabled(if: WatchIdentitySafetyTests.asNobody != nil, "as root, needs setpriv to read as another user"))
    func anUnreadableFileIsFiledOnceReadable() async throws {
        let launcher = try #require(WatchIdentitySafetyTests.asNobody)
        let folder = try TemporaryFolder()
        chmod(folder.path, 0o777)
        try FileManager.default.createDirectory(atPath: folder.path("inbox/pets/rex"), withIntermediateDirectories: true)
        for path in ["inbox", "inbox/pets", "inbox/pets/rex"] { chmod(folder.path(path), 0o777) }
        let added = try DossierBinary.run(["subjects", "add", "pets/rex", "--name", "Rex", "--library", "Library"],
                                          in: folder.url, launcher: launcher)
        #expect(added.status == 0, "\(added.standardError)")
        let photo = SafetyFixtures.jpeg(seed: 33)
        let path = try folder.write(photo, to: "outside/locked.jpg")
        chmod(path, 0o000)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, launcher: launcher)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        #expect(rename(path, folder.path("inbox/pets/rex/locked.jpg")) == 0)
        #expect(await daemon.wait { daemon.events("stuck").count == 1 }, "\(daemon.text)")
        #expect(daemon.events("stuck").first?["reason"]?.contains("Permission denied") == true)
        let listed = try DossierBinary.run(["quarantine", "list", "--library", "Library"], in: folder.url, launcher: launcher)
        #expect(listed.standardOutput.contains("stuck: \(folder.path("inbox/pets/rex/locked.jpg"))"), "\(listed.standardOutput)")
        // Made readable: inotify says its permissions changed, and it is filed.
        chmod(folder.path("inbox/pets/rex/locked.jpg"), 0o644)
        #expect(await daemon.wait { daemon.events("filed").count == 1 && WatchSafetyTests.inboxFiles(folder).isEmpty }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        let after = try DossierBinary.run(["quarantine", "list", "--library", "Library"], in: folder.url, launcher: launcher)
        #expect(after.standardOutput.hasPrefix("Nothing in quarantine"), "\(after.standardOutput)")
    }

    @Test("a file it may not take out of the inbox is not copied into the quarantine; once it may, it is quarantined, once",
          .enabled(if: WatchIdentitySafetyTests.asNobody != nil, "as root, needs setpriv to run as another user"))
    func aSourceThatCannotLeaveIsNotCopied() async throws {
        let launcher = try #require(WatchIdentitySafetyTests.asNobody)
        let folder = try TemporaryFolder()
        chmod(folder.path, 0o777)
        try FileManager.default.createDirectory(atPath: folder.path("inbox/pets/max"), withIntermediateDirectories: true)
        chmod(folder.path("inbox"), 0o777)
        chmod(folder.path("inbox/pets"), 0o777)
        let added = try DossierBinary.run(["subjects", "add", "pets/max", "--name", "Max", "--library", "Library"],
                                          in: folder.url, launcher: launcher)
        #expect(added.status == 0, "\(added.standardError)")
        // Root's folder: the daemon (nobody) can read it, but not remove what is in it.
        let damaged = Array(SafetyFixtures.jpeg(seed: 34).prefix(300))
        try folder.write(damaged, to: "inbox/pets/max/IMG_1.jpg")
        chmod(folder.path("inbox/pets/max/IMG_1.jpg"), 0o644)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url, launcher: launcher)
        #expect(await daemon.wait { daemon.events("stuck").count == 1 }, "\(daemon.text)")
        #expect(folder.files(under: "Library/quarantine").isEmpty, "a copy left behind: \(folder.files(under: "Library/quarantine"))")
        chmod(folder.path("inbox/pets/max"), 0o777)
        #expect(await daemon.wait { daemon.events("quarantined").count == 1 }, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        let quarantined = folder.files(under: "Library/quarantine")
        #expect(quarantined.count == 2, "the file and its note: \(quarantined)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("inbox/pets/max/IMG_1.jpg")))
    }

    @Test("a quarantine that fails for want of space leaves no note without its file; the source stays, listed as stuck",
          .enabled(if: WatchSafetyTests.canMountTmpfs, "needs root to mount a small tmpfs for the library"))
    func aFailedQuarantineLeavesNothingHalfMade() async throws {
        let folder = try WatchSafetyTests.prepare()
        let disk = folder.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(mount("tmpfs", disk, "tmpfs", 0, "size=1m") == 0)
        defer { umount2(disk, Int32(MNT_DETACH)) }
        #expect(try DossierBinary.run(["subjects", "add", "pets/rex", "--name", "Rex", "--library", "disk/Library"], in: folder.url).status == 0)
        let daemon = try WatchDaemon(inbox: "inbox", library: "disk/Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        // Not text, not a photo: quarantined, copied across file systems into a disk with no room for it.
        let blob = [0x00, 0x01, 0x02] + (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        try WatchSafetyTests.drop(blob, as: "pets/rex/blob.bin", in: folder)
        #expect(await daemon.wait { daemon.events("stuck").count == 1 }, "\(daemon.text)")
        #expect(daemon.events("stuck").first?["reason"]?.contains("No space left on device") == true, "\(daemon.text)")
        #expect(await daemon.stop().status == 0)
        #expect(folder.files(under: "disk/Library/quarantine").isEmpty)
        #expect(SafetyFixtures.contents(folder.path("inbox/pets/rex/blob.bin")) == blob)
        let listed = try DossierBinary.run(["quarantine", "list", "--library", "disk/Library"], in: folder.url)
        #expect(listed.standardOutput.contains("stuck: \(folder.path("inbox/pets/rex/blob.bin"))"), "\(listed.standardOutput)")
    }

    @Test("leaves nothing of its own in the inbox, and still refuses a second daemon on it, however the inbox is named")
    func leavesNoLockInTheInbox() async throws {
        let folder = try WatchSafetyTests.prepare()
        // An earlier Dossier's lock, left behind: taken away, since nobody holds it.
        try folder.write("pid 1\n", to: "inbox/.dossier-watch.lock")
        #expect(symlink(folder.path("inbox"), folder.path("inbox-link")) == 0)
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { !daemon.events("watching").isEmpty })
        let second = try DossierBinary.run(["watch", "inbox-link", "--library", "Library"], in: folder.url)
        #expect(second.status == 2)
        #expect(second.standardError.contains("pid \(daemon.pid)"), "\(second.standardError)")
        // Started with another environment (a shell's beside a service's): it meets the same lock.
        try FileManager.default.createDirectory(atPath: folder.path("runtime"), withIntermediateDirectories: true)
        let third = try DossierBinary.run(["watch", "inbox", "--library", "Library"], in: folder.url,
                                          environment: ["XDG_RUNTIME_DIR": folder.path("runtime")])
        #expect(third.status == 2)
        #expect(third.standardError.contains("pid \(daemon.pid)"), "\(third.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("inbox")).isEmpty)
        #expect(await daemon.stop().status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("inbox")).isEmpty)
    }

    @Test("writes its JSON log in a fixed schema: every event one of the documented set, counts as numbers")
    func theJSONLogHasAFixedSchema() async throws {
        let folder = try WatchSafetyTests.prepare()
        try folder.write(SafetyFixtures.jpeg(seed: 40), to: "inbox/pets/rex/a.jpg")
        let daemon = try WatchDaemon(inbox: "inbox", library: "Library", in: folder.url)
        #expect(await daemon.wait { daemon.events("filed").count == 1 })
        try WatchSafetyTests.drop(WatchSafetyTests.log(0..<3), as: "pets/rex/notes.txt", in: folder)
        try WatchSafetyTests.drop(Array("no date here\n".utf8), as: "pets/rex/other.txt", in: folder)
        #expect(await daemon.wait { daemon.events("filed").count == 2 && daemon.events("quarantined").count == 1 }, "\(daemon.text)")
        kill(daemon.pid, SIGHUP)
        #expect(await daemon.wait { !daemon.events("rescan").isEmpty })
        #expect(await daemon.stop().status == 0)
        let documented = Set(WatchEvent.allCases.map(\.rawValue))
        let objects = daemon.objects
        #expect(objects.count >= 7)
        for object in objects {
            #expect(documented.contains(object["event"] as? String ?? ""), "\(object)")
            for key in ["found", "files", "recordsAdded", "recordsDuplicate", "recordsReplaced"] {
                if let value = object[key] { #expect(value is Int, "\(key) in \(object)") }
            }
            // A source's problems are listed, each a text that names its line.
            if let problems = object["problems"] { #expect(problems is [String], "\(object)") }
        }
        #expect(objects.first { $0["event"] as? String == "watching" }?["found"] as? Int == 1)
        let log = try #require(objects.first { ($0["source"] as? String)?.hasSuffix("notes.txt") == true && $0["event"] as? String == "filed" })
        #expect(log["recordsAdded"] as? Int == 3)
    }
}
