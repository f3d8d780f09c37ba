import DossierCore
import DossierTestSupport
import DossierWatch
import Foundation
import Logging
import Synchronization
import Testing

/// An `InboxWatcher` on a fresh inbox, with what it hands on collected: each file is said to have
/// stayed (as with `--keep`), so it is handed again only if it changes.
final class WatchedInbox: Sendable {
    let folder: TemporaryFolder
    let watcher: InboxWatcher
    /// What the watcher did, kept apart so the watcher's closures can hold it.
    final class Seen: Sendable {
        let handed = Mutex<[SourceFile]>([])
        /// When each batch was taken, before it was said finished.
        let batchTimes = Mutex<[ContinuousClock.Instant]>([])
        let logLines = Mutex<[String]>([])
        let firstScanDone = Atomic(false)
    }

    let seen = Seen()
    private let consumer: Task<Void, Never>

    init(settle: Duration = .milliseconds(300), poll: Duration? = nil, rescan: Duration = .seconds(600),
         before start: (TemporaryFolder) throws -> Void = { _ in },
         eventSource: (@Sendable () throws -> any InboxEventSource)? = nil,
         beforeFinishing: (@Sendable () async -> Void)? = nil,
         ending: @escaping @Sendable (SourceFile) -> InboxWatcher.Ending = { _ in .stayed }) throws {
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
        try start(folder)
        let seen = self.seen
        let logger = Logger(label: "test") { _ in
            WatchLogHandler(format: .text, write: { line in seen.logLines.withLock { $0.append(line) } })
        }
        let watcher = InboxWatcher(inbox: folder.path("inbox"),
                                   settings: InboxWatcher.Settings(settle: settle, poll: poll, rescan: rescan),
                                   logger: logger, eventSource: eventSource,
                                   onFirstScan: { _ in seen.firstScanDone.store(true, ordering: .sequentiallyConsistent) })
        self.watcher = watcher
        consumer = Task {
            for await batch in watcher.batches {
                seen.handed.withLock { $0 += batch }
                seen.batchTimes.withLock { $0.append(ContinuousClock.now) }
                await beforeFinishing?()
                watcher.finished(batch.map { ($0.path, ending($0)) })
            }
        }
        watcher.start()
    }

    deinit {
        watcher.stop()
        consumer.cancel()
    }

    func path(_ relative: String) -> String { folder.path("inbox/\(relative)") }

    /// The inbox-relative paths handed on so far, in the order handed.
    var handedNames: [String] {
        let prefix = folder.path("inbox") + "/"
        return seen.handed.withLock { $0.map { String($0.path.dropFirst(prefix.count)) } }
    }

    var handed: [SourceFile] { seen.handed.withLock { $0 } }
    var logLines: [String] { seen.logLines.withLock { $0 } }
    var batchTimes: [ContinuousClock.Instant] { seen.batchTimes.withLock { $0 } }

    /// Waits until `condition` holds or `timeout` passes; says whether it held.
    @discardableResult
    func wait(upTo timeout: Duration = .seconds(10), until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// Waits until the watcher is idle (`InboxWatcher.idle()`): it has read every event of what
    /// the test did before this call, and every file that settled has been handed on and
    /// finished. What has been handed on then is all that will be, until the inbox changes; a
    /// file handed on twice would be there. Records a failure when it is not idle in `timeout`.
    func waitUntilIdle(upTo timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation) async {
        let watcher = self.watcher
        await waitFor("the watcher to be idle (handed on so far: \(handedNames.count))", upTo: timeout,
                      sourceLocation: sourceLocation) { await watcher.idle() }
    }

    func waitForFirstScan() async {
        await wait { seen.firstScanDone.load(ordering: .sequentiallyConsistent) }
    }
}
