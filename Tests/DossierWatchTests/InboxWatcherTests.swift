import DossierCore
import DossierTestSupport
import DossierWatch
import Foundation
import Glibc
import Synchronization
import Testing

/// The watcher on real folders with real inotify: what it hands on, when, and how often.
@Suite("The inbox watcher", .serialized)
struct InboxWatcherTests {
    static func writeFile(_ path: String, size: Int = 100, seed: Int = 0) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ seed) }).write(to: URL(fileURLWithPath: path))
    }

    @Test("hands on a file written slowly under its final name once, whole, after the writer closes it")
    func slowWriterIsTakenOnceWhole() async throws {
        let inbox = try WatchedInbox(settle: .milliseconds(300))
        await inbox.waitForFirstScan()
        let path = inbox.path("pets/leo/IMG_0001.jpg")
        try FileManager.default.createDirectory(atPath: inbox.path("pets/leo"), withIntermediateDirectories: true)
        // Pauses three times the settle time: only the open descriptor says the file is not done.
        // The pauses are the scenario (a slow writer), not a wait for the watcher.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0)
        let chunk = [UInt8](repeating: 0xAB, count: 64 * 1024)
        for _ in 0..<4 {
            _ = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            try await Task.sleep(for: .milliseconds(900))
            #expect(inbox.handedNames.isEmpty, "taken while still being written")
        }
        close(descriptor)
        #expect(await inbox.wait { inbox.handedNames.count == 1 })
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames == ["pets/leo/IMG_0001.jpg"])
        #expect(inbox.handed.first?.size == Int64(4 * chunk.count))
    }

    @Test("hands on 500 files moved in at once, each exactly once")
    func fiveHundredFilesMovedInAtOnce() async throws {
        let inbox = try WatchedInbox()
        await inbox.waitForFirstScan()
        let outside = inbox.folder.path("outside")
        let names = (0..<500).map { "IMG_\(String(format: "%04d", $0)).jpg" }
        for (index, name) in names.enumerated() { try InboxWatcherTests.writeFile("\(outside)/\(name)", seed: index) }
        for name in names { #expect(rename("\(outside)/\(name)", inbox.path(name)) == 0) }
        #expect(await inbox.wait { inbox.handedNames.count >= 500 })
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames.sorted() == names)
    }

    @Test("picks up what a folder moved in whole already holds, at every depth")
    func folderMovedInWhole() async throws {
        let inbox = try WatchedInbox()
        await inbox.waitForFirstScan()
        let dump = inbox.folder.path("dump")
        let expected = ["dump/children/mina/2024/a.jpg", "dump/children/mina/b.txt", "dump/pets/leo/c.png", "dump/top.csv"]
        for (index, name) in expected.enumerated() {
            try InboxWatcherTests.writeFile(inbox.folder.path(name), seed: index)
        }
        try InboxWatcherTests.writeFile(inbox.folder.path("dump/pets/leo/.DS_Store"))
        try InboxWatcherTests.writeFile(inbox.folder.path("dump/@eaDir/thumb.jpg"))
        #expect(rename(dump, inbox.path("dump")) == 0)
        #expect(await inbox.wait { inbox.handedNames.count >= 4 })
        // A folder created after the move is watched too.
        try InboxWatcherTests.writeFile(inbox.path("dump/pets/leo/new/d.jpg"))
        #expect(await inbox.wait { inbox.handedNames.count >= 5 })
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames.sorted() == (expected + ["dump/pets/leo/new/d.jpg"]).sorted())
    }

    @Test("misses no file dropped while the first scan runs")
    func fileDroppedDuringFirstScan() async throws {
        let existing = (0..<40).flatMap { folder in (0..<50).map { "old/\(folder)/\($0).jpg" } }
        let dropper = Mutex<Task<[String], any Error>?>(nil)
        let inbox = try WatchedInbox(before: { folder in
            for (index, name) in existing.enumerated() { try InboxWatcherTests.writeFile(folder.path("inbox/\(name)"), size: 10, seed: index) }
            let inboxPath = folder.path("inbox")
            // Drops new files into folders the scan has and has not reached, while it runs: the
            // pauses spread the drops over the scan (the scenario, not a wait).
            dropper.withLock {
                $0 = Task.detached {
                    var dropped: [String] = []
                    for round in 0..<40 {
                        let name = "old/\(39 - round)/new-\(round).jpg"
                        try InboxWatcherTests.writeFile("\(inboxPath)/\(name)", size: 10, seed: round)
                        dropped.append(name)
                        try await Task.sleep(for: .milliseconds(2))
                    }
                    return dropped
                }
            }
        })
        let dropped = try await dropper.withLock { $0! }.value
        let all = (existing + dropped).sorted()
        #expect(await inbox.wait(upTo: .seconds(20)) { inbox.handedNames.count >= all.count })
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames.sorted() == all)
    }

    @Test("reads the inbox again after an overflow, and misses nothing the lost events named")
    func overflowLeadsToARescan() async throws {
        let source = Mutex<LossyEventSource?>(nil)
        let inbox = try WatchedInbox(eventSource: {
            let lossy = try LossyEventSource()
            source.withLock { $0 = lossy }
            return lossy
        })
        await inbox.waitForFirstScan()
        let lossy = try #require(source.withLock { $0 })
        lossy.losing.store(true, ordering: .sequentiallyConsistent)
        let names = (0..<60).map { "burst/\($0).jpg" }
        for (index, name) in names.enumerated() { try InboxWatcherTests.writeFile(inbox.path(name), seed: index) }
        // Idle: the watcher has read (and lost) the events of every file written; one it saw
        // anyway would have settled and been handed on before it is idle.
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames.isEmpty, "the events were lost; nothing should have been seen yet")
        lossy.losing.store(false, ordering: .sequentiallyConsistent)
        #expect(await inbox.wait { inbox.handedNames.count >= 60 })
        #expect(inbox.handedNames.sorted() == names.sorted())
        #expect(inbox.logLines.contains { $0.contains("rescan") && $0.contains("overflowed") })
    }

    @Test("polls when asked to, and finds files inotify would not be told of")
    func pollMode() async throws {
        let inbox = try WatchedInbox(settle: .milliseconds(200), poll: .milliseconds(300))
        await inbox.waitForFirstScan()
        try InboxWatcherTests.writeFile(inbox.path("pets/leo/a.jpg"))
        try InboxWatcherTests.writeFile(inbox.path("b.txt"))
        #expect(await inbox.wait { inbox.handedNames.count >= 2 })
        // Idle, polling: a poll has read the folders again since both were handed on.
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames.sorted() == ["b.txt", "pets/leo/a.jpg"])
    }

    @Test("falls back to polling, and says so once with the sysctl, when the inotify watch limit is reached")
    func watchLimitFallsBackToPolling() async throws {
        let inbox = try WatchedInbox(before: { folder in
            for index in 0..<5 { try InboxWatcherTests.writeFile(folder.path("inbox/f\(index)/a.jpg"), seed: index) }
        }, eventSource: { try LossyEventSource(watchLimit: 3) })
        await inbox.waitForFirstScan()
        #expect(await inbox.wait { inbox.handedNames.count >= 5 })
        #expect(inbox.handedNames.sorted() == (0..<5).map { "f\($0)/a.jpg" })
        let warnings = inbox.logLines.filter { $0.contains("max_user_watches") }
        #expect(warnings.count == 1)
    }

    @Test("leaves files with a sync tool's temporary name until they are renamed")
    func temporaryNamesWaitForTheirRename() async throws {
        let inbox = try WatchedInbox()
        await inbox.waitForFirstScan()
        let temporary = ["IMG_1.jpg.part", "IMG_2.jpg.crdownload", ".syncthing.IMG_3.jpg.tmp", "IMG_4.jpg.!sync",
                         "~$notes.docx", ".stversions/IMG_5.jpg", "@eaDir/IMG_6.jpg", ".Trash-1000/IMG_7.jpg",
                         "IMG_8.JPG.PARTIAL", "IMG_9.tmp"]
        for name in temporary { try InboxWatcherTests.writeFile(inbox.path(name)) }
        // Idle: every event of the writes read; a name taken by mistake would have settled and
        // been handed on first.
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames.isEmpty)
        #expect(rename(inbox.path("IMG_1.jpg.part"), inbox.path("IMG_1.jpg")) == 0)
        #expect(await inbox.wait { inbox.handedNames == ["IMG_1.jpg"] })
    }

    @Test("waits for an inbox that disappears, and takes what it holds when it is back")
    func inboxThatDisappearsIsWaitedFor() async throws {
        let inbox = try WatchedInbox()
        await inbox.waitForFirstScan()
        let path = inbox.folder.path("inbox")
        let aside = inbox.folder.path("aside")
        #expect(rename(path, aside) == 0)
        try InboxWatcherTests.writeFile("\(aside)/pets/leo/a.jpg")
        await waitUntil("the watcher to say the inbox is gone") { inbox.logLines.contains { $0.contains("inbox-gone") } }
        #expect(rename(aside, path) == 0)
        #expect(await inbox.wait { inbox.handedNames == ["pets/leo/a.jpg"] })
        // Watched again: a new file is seen.
        try InboxWatcherTests.writeFile(inbox.path("pets/leo/b.jpg"))
        #expect(await inbox.wait { inbox.handedNames.sorted() == ["pets/leo/a.jpg", "pets/leo/b.jpg"] })
    }

    @Test("a file deleted while it settles is never handed on; one renamed while it settles is handed on once, by its new name")
    func filesThatGoOrMoveWhileSettling() async throws {
        let inbox = try WatchedInbox(settle: .milliseconds(600))
        await inbox.waitForFirstScan()
        try InboxWatcherTests.writeFile(inbox.path("pets/leo/gone.jpg"))
        try InboxWatcherTests.writeFile(inbox.path("pets/leo/IMG_0001.jpg.part"), seed: 1)
        try InboxWatcherTests.writeFile(inbox.path("pets/leo/moved.jpg"), seed: 2)
        // A third of the settle time: the scenario is a change while the files settle, not a wait.
        try await Task.sleep(for: .milliseconds(200))
        #expect(unlink(inbox.path("pets/leo/gone.jpg")) == 0)
        // A download finishing (its temporary name dropped), and a file moved to another folder.
        #expect(rename(inbox.path("pets/leo/IMG_0001.jpg.part"), inbox.path("pets/leo/IMG_0001.jpg")) == 0)
        try FileManager.default.createDirectory(atPath: inbox.path("pets/mia"), withIntermediateDirectories: true)
        #expect(rename(inbox.path("pets/leo/moved.jpg"), inbox.path("pets/mia/moved.jpg")) == 0)
        #expect(await inbox.wait { inbox.handedNames.count >= 2 })
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames.sorted() == ["pets/leo/IMG_0001.jpg", "pets/mia/moved.jpg"])
        #expect(!inbox.logLines.contains { $0.contains("gone.jpg") }, "\(inbox.logLines)")
    }

    @Test("never hands on a FIFO, a socket or a device node (reading one would block or never end), only the files beside it")
    func specialFilesAreNotHandedOn() async throws {
        let inbox = try WatchedInbox()
        try FileManager.default.createDirectory(atPath: inbox.path("pets/leo"), withIntermediateDirectories: true)
        #expect(mkfifo(inbox.path("pets/leo/before.jpg"), 0o644) == 0)
        await inbox.waitForFirstScan()
        #expect(mkfifo(inbox.path("pets/leo/after.jpg"), 0o644) == 0)
        try InboxWatcherTests.writeFile(inbox.path("pets/leo/IMG_0001.jpg"))
        #expect(await inbox.wait { inbox.handedNames.count >= 1 })
        inbox.watcher.rescan(reason: "test")
        // Idle: after the rescan asked for, and whatever it found settled and handed on.
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames == ["pets/leo/IMG_0001.jpg"])
    }

    @Test("hands on a file that stayed again only once it changes")
    func stayedFileIsHandedAgainWhenChanged() async throws {
        let inbox = try WatchedInbox()
        await inbox.waitForFirstScan()
        try InboxWatcherTests.writeFile(inbox.path("log.txt"), size: 10)
        #expect(await inbox.wait { inbox.handedNames.count == 1 })
        inbox.watcher.rescan(reason: "test")
        // Idle: after the rescan asked for, and whatever it found settled and handed on.
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames.count == 1)
        try InboxWatcherTests.writeFile(inbox.path("log.txt"), size: 20)
        #expect(await inbox.wait { inbox.handedNames.count == 2 })
        #expect(inbox.handed.last?.size == 20)
    }

    @Test("a file that ends incomplete (cut short) is handed on again once it changes, and, unchanged, after ten times the settle time")
    func incompleteFileIsHandedAgain() async throws {
        let inbox = try WatchedInbox(settle: .milliseconds(100), ending: { _ in .incomplete })
        #expect(inbox.watcher.settings.cutShortSettle == .seconds(1))
        await inbox.waitForFirstScan()
        try InboxWatcherTests.writeFile(inbox.path("IMG_0001.jpg"), size: 100)
        // Unchanged: handed on again only once it has stayed so for the long settle after its
        // batch ended (each batch's time is taken before it is said finished).
        #expect(await inbox.wait { inbox.handedNames.count == 2 })
        let times = inbox.batchTimes
        #expect(times.count == 2 && times[1] - times[0] >= .seconds(1), "\(times)")
        #expect(inbox.handed.map(\.size) == [100, 100])
        // Written again: handed on as it now is.
        let descriptor = open(inbox.path("IMG_0001.jpg"), O_WRONLY | O_APPEND)
        #expect(descriptor >= 0)
        _ = [UInt8](repeating: 7, count: 50).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        #expect(await inbox.wait { inbox.handed.contains { $0.size == 150 } })
    }

    @Test("a file opened for writing and closed unchanged while its batch is under way is not handed on again")
    func closedUnchangedDuringItsBatchIsNotHandedAgain() async throws {
        let gate = BatchGate()
        let inbox = try WatchedInbox(beforeFinishing: gate.wait)
        await inbox.waitForFirstScan()
        try InboxWatcherTests.writeFile(inbox.path("IMG_0001.jpg"), size: 100)
        #expect(await inbox.wait { inbox.handedNames.count == 1 })
        // A sync tool or an editor opens it for writing and closes it, changing nothing.
        let descriptor = open(inbox.path("IMG_0001.jpg"), O_WRONLY)
        #expect(descriptor >= 0)
        close(descriptor)
        // Longer than the settle time, so the close has settled before the batch ends.
        try await Task.sleep(for: .milliseconds(600))
        gate.open()
        await inbox.waitUntilIdle()
        #expect(inbox.handedNames == ["IMG_0001.jpg"])
        // Changed for real afterwards, it is handed on again.
        try InboxWatcherTests.writeFile(inbox.path("IMG_0001.jpg"), size: 200)
        #expect(await inbox.wait { inbox.handedNames.count == 2 })
    }

    @Test("a file removed while its batch is under way has departed, though its batch says it stayed; one of its name after is new")
    func removedWhileItsBatchIsUnderWayHasDeparted() async throws {
        let gate = BatchGate()
        let inbox = try WatchedInbox(beforeFinishing: gate.wait)
        await inbox.waitForFirstScan()
        let path = inbox.path("w.txt")
        try InboxWatcherTests.writeFile(path, size: 40)
        #expect(await inbox.wait { inbox.handedNames.count == 1 })
        // Deleted by hand while the daemon files it (--keep: the batch will say it stayed).
        try FileManager.default.removeItem(atPath: path)
        try await Task.sleep(for: .milliseconds(300))
        gate.open()
        await inbox.waitUntilIdle()
        #expect(inbox.watcher.takeDepartures() == [path])
        try InboxWatcherTests.writeFile(path, size: 60, seed: 1)
        #expect(await inbox.wait { inbox.handedNames.count == 2 })
        #expect(inbox.watcher.takeDepartures().isEmpty)
    }
}

/// Holds each batch the watcher hands on, not finished, until opened: what happens while a batch
/// is under way can then be done in a known order.
final class BatchGate: Sendable {
    private let isOpen = Atomic(false)

    @Sendable func wait() async {
        while !isOpen.load(ordering: .sequentiallyConsistent) { try? await Task.sleep(for: .milliseconds(10)) }
    }

    func open() {
        isOpen.store(true, ordering: .sequentiallyConsistent)
    }
}
