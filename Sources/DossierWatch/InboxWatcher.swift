import DossierCore
import Foundation
import Glibc
import Logging
import Synchronization

/// Watches an inbox folder and hands on the files in it that are complete, in batches the
/// consumer pulls (`batches`): everything there at the start, then what arrives.
///
/// A file is complete when it was closed after writing or moved in, and its size and
/// modification time then stayed the same for the settle time; files with the temporary names
/// of sync and download tools are left until they are renamed (`SkippedNames`). Events are
/// never trusted alone: a lost event (a queue overflow, a folder watched after files were put in
/// it, an inbox unmounted and mounted again) is made up for by reading the folders again, and
/// a full rescan runs every `rescan` as the backstop.
///
/// The watching runs on a thread of its own, blocked in `poll(2)` while the inbox is idle (no
/// timer fires then but the rescan's and the watchdog's), so it never holds a thread of Swift's
/// cooperative pool. A file handed on is not handed again until the consumer says how it ended
/// (`finished`); one left in the inbox (kept, or not removed) is handed again only once it changes.
/// `idle()` waits until the watcher has nothing under way: the way to see that something did
/// not happen (a file handed on a second time) without waiting for a guessed length of time.
public final class InboxWatcher: @unchecked Sendable {
    public struct Settings: Sendable {
        /// How long a file's size and modification time must stay the same.
        public var settle: Duration
        /// Read the folders every so often instead of using inotify (network shares).
        public var poll: Duration?
        /// Read the whole inbox again every so often, whatever the events said.
        public var rescan: Duration
        /// How often to say the watcher is alive (systemd's watchdog); nil: never.
        public var heartbeat: Duration?
        /// The library files are filed into: never walked, wherever it shows up in the inbox (by
        /// device and inode, so a second mount of the same disk cannot hide it).
        public var library: LibraryBoundary?

        public init(settle: Duration = .seconds(2), poll: Duration? = nil, rescan: Duration = .seconds(600),
                    heartbeat: Duration? = nil, library: LibraryBoundary? = nil) {
            self.settle = settle
            self.poll = poll
            self.rescan = rescan
            self.heartbeat = heartbeat
            self.library = library
        }

        /// How long a file left in the inbox cut short (`Ending.incomplete`) must stay unchanged
        /// before it is handed on again, to be filed as it is: ten times the settle time.
        public var cutShortSettle: Duration { settle * InboxWatcher.cutShortSettleFactor }
    }

    /// How many settle times a file that reads cut short waits unchanged (`Settings.cutShortSettle`).
    public static let cutShortSettleFactor = 10

    /// How a file the consumer was handed ended.
    public enum Ending: Sendable {
        /// It left the inbox (filed and removed, or quarantined): forgotten.
        case left
        /// It was filed and stays in the inbox (`--keep`, or it could not be removed): handed
        /// again only when it changes.
        case stayed
        /// It could not be filed and stays in the inbox (`--keep`, or it could be neither filed
        /// nor quarantined): handed again when it changes, and on `rescan(reason:)` (SIGHUP),
        /// after which a missing subject may have been added or a permission fixed.
        case unfiled
        /// It is to be tried again (the library could not be written): handed again after the settle time.
        case retry
        /// It reads cut short and stays in the inbox while it may still be written: handed again
        /// once it changes and settles, or once it has not changed for `Settings.cutShortSettle`.
        case incomplete
    }

    /// Polling when inotify cannot be had (its watch limit reached): often enough that a photo
    /// does not wait long, rarely enough that a large inbox costs little.
    static let fallbackPoll: Duration = .seconds(10)
    /// How often a vanished or remounted inbox is looked for.
    static let inboxCheck: Duration = .seconds(2)

    public let inbox: String
    public let settings: Settings
    public let batches = SettledSources()
    private let logger: Logger
    private let makeEventSource: @Sendable () throws -> any InboxEventSource
    /// A pipe that wakes the thread from `poll` (endings to take in, a rescan asked for, a stop).
    private let wakeDescriptor: Int32
    private let wakeWriteDescriptor: Int32
    private let mailbox = Mutex(Mailbox())
    /// Files that stayed in the inbox and have left it since (deleted, moved away), for the
    /// consumer to record as departed before it files what may come at their paths.
    private let departures = Mutex<[String]>([])
    /// Callers of `idle()` not yet answered.
    private let idleWaiters = Mutex(IdleWaiters())
    private var thread: Thread?
    /// Called on the watcher's thread once the first scan is done, and at each heartbeat.
    private let onFirstScan: @Sendable (Int) -> Void
    private let onHeartbeat: @Sendable () -> Void

    // The rest belongs to the watcher's thread.
    private var eventSource: (any InboxEventSource)?
    private var polling: Duration?
    private var folders: [Int32: String] = [:]
    private var settling: [String: SettlingFile] = [:]
    private var writing: Set<String> = []
    private var handed: [String: FileStamp] = [:]
    private var remembered: [String: FileStamp] = [:]
    /// Those of `remembered` that stayed unfiled.
    private var unfiled: Set<String> = []
    /// Files under way whose folder's permissions changed meanwhile: if they end unfiled, they
    /// are tried again at once (the change may be what let them be read or moved).
    private var recheck: Set<String> = []
    /// Files removed from the inbox while handed on (their batch under way, or its endings not
    /// taken yet): they have departed, whatever the ending says, and a file of their name that
    /// comes after is a new source.
    private var removedWhileHanded: Set<String> = []
    /// Libraries met in the inbox and left alone, each said once.
    private var passedOver: Set<String> = []
    /// FIFOs, sockets and devices met in the inbox, each said once while it is there, never opened.
    private var notRegular: Set<String> = []
    /// The mounts as they were at the last scan: a folder in the inbox that is a mount point may
    /// be a library, or a folder of one, mounted there.
    private var mounts = MountTable(mounts: [])
    private var inboxDevice: UInt64?
    private var waitingForInbox = false
    private var nextRescan = ContinuousClock.now
    private var nextPoll = ContinuousClock.now
    private var nextInboxCheck = ContinuousClock.now
    private var nextHeartbeat = ContinuousClock.now

    private struct Mailbox {
        var endings: [(String, Ending)] = []
        var rescanReason: String?
        var stopping = false
    }

    /// Those waiting in `idle()`, by number: `asking` until the watcher has looked at the inbox
    /// since they asked, then `looked` until it is idle.
    private struct IdleWaiters {
        var nextNumber = 0
        var asking: [Int: CheckedContinuation<Void, Never>] = [:]
        var looked: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Cancelled before they were put in `asking`.
        var cancelled: Set<Int> = []
        var stopped = false

        /// Removes everyone (the watcher stopped) and hands back what to resume.
        mutating func takeAll() -> [CheckedContinuation<Void, Never>] {
            defer { asking = [:]; looked = [:] }
            return Array(asking.values) + Array(looked.values)
        }
    }

    /// - Parameter eventSource: where events come from; inotify unless given (tests give one
    ///   that loses events on purpose).
    public init(inbox: String, settings: Settings, logger: Logger,
                eventSource: (@Sendable () throws -> any InboxEventSource)? = nil,
                onFirstScan: @escaping @Sendable (Int) -> Void = { _ in },
                onHeartbeat: @escaping @Sendable () -> Void = {}) {
        self.inbox = URL(fileURLWithPath: inbox).standardizedFileURL.path
        self.settings = settings
        self.logger = logger
        self.makeEventSource = eventSource ?? { try InotifyEventSource() }
        self.onFirstScan = onFirstScan
        self.onHeartbeat = onHeartbeat
        polling = settings.poll
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (wakeDescriptor, wakeWriteDescriptor) = (ends[0], ends[1])
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriteDescriptor)
    }

    /// Starts watching on a thread of its own.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "dossier inbox watcher"
        self.thread = thread
        thread.start()
    }

    /// Stops watching; `batches` ends.
    public func stop() {
        mailbox.withLock { $0.stopping = true }
        wake()
    }

    /// Says how the files of a batch ended.
    public func finished(_ endings: [(path: String, ending: Ending)]) {
        mailbox.withLock { $0.endings += endings.map { ($0.path, $0.ending) } }
        wake()
    }

    /// The files that stayed in the inbox (filed and kept, or unfiled) and have left it since
    /// they were handed on: their paths are free for new files, which are not them edited.
    public func takeDepartures() -> [String] {
        departures.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }

    /// Reads the whole inbox again soon, handing on again also the files that stayed in it
    /// unfiled (SIGHUP: a file left for want of a subject, or one that could not be read, is
    /// looked at anew).
    public func rescan(reason: String) {
        mailbox.withLock { $0.rescanReason = reason }
        wake()
    }

    /// Returns once the watcher is idle: it has looked at the inbox since this call (read the
    /// kernel's events, or, when polling, read the folders) and then had no file settling, no
    /// file handed on that the consumer has not said `finished` for, no ending not yet taken in
    /// and no rescan asked for. What is handed on after that comes only from a change in the
    /// inbox (or a rescan). A file still open for writing waits for its writer, and does not
    /// count. Returns at once when the watcher has stopped, or the calling task is cancelled.
    ///
    /// For tests and tools that must see that nothing more happens; the watcher itself never waits
    /// for it. Each call costs the watcher one look at its events, or waits for its next poll.
    public func idle() async {
        let number = idleWaiters.withLock { waiters in
            defer { waiters.nextNumber += 1 }
            return waiters.nextNumber
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let answered = idleWaiters.withLock { waiters in
                    if waiters.stopped || waiters.cancelled.remove(number) != nil { return true }
                    waiters.asking[number] = continuation
                    return false
                }
                if answered { continuation.resume() } else { wake() }
            }
        } onCancel: {
            let waiting = idleWaiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
                if let waiting = waiters.asking.removeValue(forKey: number) ?? waiters.looked.removeValue(forKey: number) {
                    return waiting
                }
                waiters.cancelled.insert(number)
                return nil
            }
            waiting?.resume()
        }
    }

    private func wake() {
        var one: UInt8 = 1
        _ = write(wakeWriteDescriptor, &one, 1)
    }

    // MARK: The watcher's thread

    private func run() {
        attach()
        onFirstScan(settling.count)
        while true {
            let mail = mailbox.withLock { mailbox -> Mailbox in
                defer { mailbox.endings = []; mailbox.rescanReason = nil }
                return mailbox
            }
            if mail.stopping { break }
            // Those who asked before this turn, and whether it looks at the inbox after they asked:
            // it reads the events, or, polling, it reads the folders if a poll is due.
            let asking = idleWaiters.withLock { Set($0.asking.keys) }
            var looks = polling == nil
            take(mail.endings)
            if let reason = mail.rescanReason {
                for path in unfiled { remembered[path] = nil }
                rescan(reason: reason, always: true)
            }
            let now = ContinuousClock.now
            if now >= nextInboxCheck { checkInbox(now) }
            if !waitingForInbox {
                if now >= nextRescan { rescan(reason: "scheduled", always: false) }
                if let polling, now >= nextPoll {
                    nextPoll = now + polling
                    scan(inbox, watching: false)
                    looks = true
                }
                settle(ContinuousClock.now)
            }
            if let heartbeat = settings.heartbeat, now >= nextHeartbeat {
                nextHeartbeat = now + heartbeat
                onHeartbeat()
            }
            looks = looks || waitingForInbox
            // Someone waits in `idle()` and nothing is under way: the events are read now, not
            // when something is next due, and the turn ends with the answer.
            let answerNow = settling.isEmpty && handed.isEmpty && idleWaiters.withLock { !$0.looked.isEmpty || (looks && !$0.asking.isEmpty) }
            let timeout = answerNow ? .zero : nextWakeUp() - ContinuousClock.now
            let events: [InboxEvent]
            if let eventSource, !waitingForInbox {
                events = eventSource.waitForEvents(timeout: timeout, wakeDescriptor: wakeDescriptor)
            } else {
                events = []
                var descriptor = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, timeout.pollTimeout)
            }
            var drained = [UInt8](repeating: 0, count: 64)
            while read(wakeDescriptor, &drained, drained.count) > 0 {}
            handle(events)
            answerIdle(asking: asking, looked: looks)
        }
        batches.finish()
        let waiting = idleWaiters.withLock { waiters in
            waiters.stopped = true
            return waiters.takeAll()
        }
        for continuation in waiting { continuation.resume() }
    }

    /// At the end of a turn: those who asked before it are past the look at the inbox if it made
    /// one (`looked`); everyone past it is answered if nothing is under way.
    private func answerIdle(asking: Set<Int>, looked: Bool) {
        let isIdle = settling.isEmpty && handed.isEmpty
            && mailbox.withLock { $0.endings.isEmpty && $0.rescanReason == nil }
        let answered = idleWaiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
            if looked {
                for number in asking {
                    if let waiting = waiters.asking.removeValue(forKey: number) { waiters.looked[number] = waiting }
                }
            }
            guard isIdle else { return [] }
            defer { waiters.looked = [:] }
            return Array(waiters.looked.values)
        }
        for continuation in answered { continuation.resume() }
    }

    /// The earliest moment something is due: a settling file's settle time, a poll, a rescan,
    /// an inbox check, a heartbeat. Idle, only the rescan, inbox check and heartbeat remain.
    private func nextWakeUp() -> ContinuousClock.Instant {
        var next = min(nextRescan, nextInboxCheck)
        if polling != nil { next = min(next, nextPoll) }
        if settings.heartbeat != nil { next = min(next, nextHeartbeat) }
        if let soonest = settling.values.lazy.map({ $0.since + ($0.wait ?? self.settings.settle) }).min() {
            next = min(next, soonest)
        }
        return next
    }

    /// Watches the inbox (unless polling) and reads everything in it.
    private func attach() {
        folders = [:]
        waitingForInbox = false
        inboxDevice = SourcePath.status(inbox).map { UInt64($0.st_dev) }
        guard let info = SourcePath.status(inbox), info.st_mode & S_IFMT == S_IFDIR else {
            waitForInbox()
            return
        }
        if polling == nil {
            do {
                if let eventSource { try eventSource.reset() } else { eventSource = try makeEventSource() }
            } catch {
                fallBackToPolling(error as? InboxWatchError ?? .noInstance(reason: "\(error)"))
            }
        }
        nextRescan = ContinuousClock.now + settings.rescan
        scan(inbox, watching: polling == nil)
    }

    private func waitForInbox() {
        guard !waitingForInbox else { return }
        waitingForInbox = true
        folders = [:]
        settling = [:]
        writing = []
        logger.record(.inboxGone, level: .warning, [
            "source": "\(SourcePath.displayed(inbox))",
            "reason": "it is not there (deleted, moved or unmounted); waiting for it to come back",
        ])
    }

    /// A vanished inbox is waited for and attached again; one mounted over (another device under
    /// the same path) is attached afresh, since the old watches see nothing of the new file system.
    private func checkInbox(_ now: ContinuousClock.Instant) {
        nextInboxCheck = now + InboxWatcher.inboxCheck
        let device = SourcePath.status(inbox).flatMap { $0.st_mode & S_IFMT == S_IFDIR ? UInt64($0.st_dev) : nil }
        if device == nil {
            waitForInbox()
        } else if waitingForInbox || device != inboxDevice {
            let wasWaiting = waitingForInbox
            attach()
            logger.record(.rescan, ["source": "\(SourcePath.displayed(inbox))",
                                    "reason": "\(wasWaiting ? "the inbox is back" : "the inbox was mounted over")",
                                    "found": .stringConvertible(settling.count)])
        }
    }

    private func fallBackToPolling(_ error: InboxWatchError) {
        logger.record(.polling, level: .warning, [
            "source": "\(SourcePath.displayed(inbox))",
            "reason": "\(error); reading the inbox every \(InboxWatcher.fallbackPoll) instead",
        ])
        eventSource = nil
        folders = [:]
        polling = InboxWatcher.fallbackPoll
        nextPoll = ContinuousClock.now + InboxWatcher.fallbackPoll
    }

    private func rescan(reason: String, always: Bool) {
        nextRescan = ContinuousClock.now + settings.rescan
        let before = settling.count
        // Files being written whose writer is gone (closed with no event seen) are looked at
        // again; files that stayed and have gone since are forgotten, so months of them do not add up.
        writing = writing.filter { FileStamp.of($0) != nil }
        let gone = remembered.keys.filter { FileStamp.of($0) == nil }
        forget(gone)
        notRegular = notRegular.filter { NotARegularFile.kind(at: $0) != nil }
        scan(inbox, watching: polling == nil)
        let found = settling.count - before
        if always || found > 0 {
            logger.record(.rescan, ["source": "\(SourcePath.displayed(inbox))", "reason": "\(reason)",
                                    "found": .stringConvertible(found)])
        }
    }

    /// Reads a folder and those below it; with `watching`, watches each before reading it, so a
    /// file put in while it is read is either listed or seen as an event.
    private func scan(_ folder: String, watching: Bool) {
        // Read once a scan, not for every folder of it.
        mounts = MountTable.current()
        // `import`'s discovery walks folders the same way, passing over the same names and libraries.
        var watchLimitReached = false
        FolderWalk(library: settings.library, mounts: mounts).walk(folder) { event in
            switch event {
            case .passedOver(let folder, let isOurs):
                passOver(folder, isOurs: isOurs)
            case .entering(let folder):
                guard !watchLimitReached else { return false }
                if watching, let eventSource, !folders.values.contains(folder) || folder == inbox {
                    do {
                        folders[try eventSource.watch(folder: folder)] = folder
                    } catch InboxWatchError.watchLimitReached {
                        watchLimitReached = true
                        return false
                    } catch {
                        logger.record(.failed, level: .warning, ["source": "\(SourcePath.displayed(folder))", "reason": "\(error)"])
                    }
                }
                return true
            case .unreadable(let folder, _):
                if folder == inbox { waitForInbox() }
            case .file(let entry):
                offer(entry.path, now: ContinuousClock.now)
            case .passedOverName(let entry) where entry.passedOver?.code == SkippedNames.reportSiteCode:
                passOverReportSite(entry.path)
            case .passedOverName:
                // Renamed to its real name, or out of a tool's folder, it is seen as a move in.
                break
            }
            return false
        }
        if watchLimitReached {
            fallBackToPolling(.watchLimitReached)
            scan(inbox, watching: false)
        }
    }

    private func libraryKind(_ folder: String) -> Bool? {
        LibraryBoundary.libraryKind(of: folder, library: settings.library, mounts: mounts)
    }

    /// Says once that a folder of the inbox is left alone, being a library or a folder of one.
    private func passOver(_ folder: String, isOurs: Bool) {
        guard passedOver.insert(folder).inserted else { return }
        logger.record(.passedOver, level: .warning, [
            "source": "\(SourcePath.displayed(folder))",
            "reason": isOurs ? "it is the library files are filed into (or a folder of it), seen through the inbox; it is never taken as sources"
                : "it is a Dossier library (or a folder of one); Dossier never takes a library apart: move it out of the inbox",
        ])
    }

    /// The folder above `path` (up to the inbox) that is a library or lies in one: a library
    /// copied into the inbox whose marker came after its other files, or one mounted into it
    /// since the last scan. Looked at once more before a file is handed on.
    private func libraryAbove(_ path: String) -> (folder: String, isOurs: Bool)? {
        var folder = (path as NSString).deletingLastPathComponent
        while folder == inbox || folder.hasPrefix(inbox + "/") {
            if let isOurs = libraryKind(folder) { return (folder, isOurs) }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// The folder above `path` (up to the inbox) that holds a Dossier report's site
    /// (`SkippedNames.isReportSite`): `dossier report --out` into the inbox makes its folder,
    /// then its mark, so pages written there may be seen before the mark is; looked at once more
    /// before a file is handed on.
    private func reportSiteAbove(_ path: String) -> String? {
        var folder = (path as NSString).deletingLastPathComponent
        while folder.hasPrefix(inbox + "/") {
            if SkippedNames.isReportSite(folder) { return folder }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// Says once that a report's site in the inbox is left alone.
    private func passOverReportSite(_ folder: String) {
        guard passedOver.insert(folder).inserted else { return }
        logger.record(.passedOver, level: .warning, [
            "source": "\(SourcePath.displayed(folder))",
            "reason": "it is a Dossier report's site (pages made from a library by `dossier report`); it is never taken as sources",
        ])
    }

    /// A file found by reading a folder: settling unless it is being written, already handed
    /// on, or stayed in the inbox unchanged.
    private func offer(_ path: String, now: ContinuousClock.Instant) {
        guard !writing.contains(path), settling[path] == nil, handed[path] == nil else { return }
        guard let (stamp, _) = FileStamp.of(path) else { return passOverNotRegular(path) }
        guard remembered[path] != stamp else { return }
        settling[path] = SettlingFile(stamp: stamp, since: now)
    }

    /// Says once (not at every rescan) that a FIFO, socket or device in the inbox is left alone,
    /// unopened (`NotARegularFile`); said again only if it goes and another comes at its name.
    private func passOverNotRegular(_ path: String) {
        guard let kind = NotARegularFile.kind(at: path), notRegular.insert(path).inserted else { return }
        logger.record(.passedOver, level: .warning, [
            "source": "\(SourcePath.displayed(path))",
            "reason": "\(NotARegularFile.reason(kind: kind)); it stays in the inbox",
            "code": "\(NotARegularFile.code)",
        ])
    }

    private func handle(_ events: [InboxEvent]) {
        let now = ContinuousClock.now
        for event in events {
            switch event {
            case .overflow:
                rescan(reason: "the kernel's event queue overflowed; events were lost", always: true)
            case .folderGone(let watch):
                guard let folder = folders.removeValue(forKey: watch) else { continue }
                if folder == inbox { waitForInbox() }
            case .folderAppeared(let watch, let name):
                guard let parent = folders[watch], !SkippedNames.isIgnoredFolder(name) else { continue }
                let folder = "\(parent)/\(name)"
                // Its permissions changed, maybe: files in it that could not be filed are tried again.
                for path in unfiled where path.hasPrefix(folder + "/") { remembered[path] = nil }
                recheck.formUnion(handed.keys.filter { $0.hasPrefix(folder + "/") })
                scan(folder, watching: true)
            case .removed(let watch, let name):
                guard let parent = folders[watch] else { continue }
                let path = "\(parent)/\(name)"
                settling[path] = nil
                writing.remove(path)
                if remembered[path] != nil, FileStamp.of(path) == nil { forget([path]) }
                if handed[path] != nil { removedWhileHanded.insert(path) }
            case .writing(let watch, let name):
                guard let parent = folders[watch], !SkippedNames.isIgnoredFile(name) else { continue }
                let path = "\(parent)/\(name)"
                // A symbolic link is made whole at once, and is never closed after writing.
                if SourcePath.status(path, followingLinks: false).map({ $0.st_mode & S_IFMT == S_IFLNK }) == true {
                    written(path, now: now)
                } else {
                    writing.insert(path)
                    settling[path] = nil
                }
            case .written(let watch, let name):
                guard let parent = folders[watch], !SkippedNames.isIgnoredFile(name) else { continue }
                written("\(parent)/\(name)", now: now)
            case .attributesChanged(let watch, let name):
                // A permission or owner changed (a file that could not be read made readable),
                // or a writer set its time: looked at again unless it is still being written.
                guard let parent = folders[watch], !SkippedNames.isIgnoredFile(name) else { continue }
                let path = "\(parent)/\(name)"
                guard !writing.contains(path), settling[path] == nil, let (stamp, _) = FileStamp.of(path),
                      remembered[path] != stamp else { continue }
                settling[path] = SettlingFile(stamp: stamp, since: now)
            }
        }
    }

    /// Files that stayed and have left the inbox: no longer remembered, and told to the consumer.
    private func forget(_ gone: [String]) {
        guard !gone.isEmpty else { return }
        for path in gone {
            remembered[path] = nil
            unfiled.remove(path)
        }
        departures.withLock { $0 += gone }
    }

    /// A file closed after writing or moved in: settling, unless it is as it was when it stayed.
    private func written(_ path: String, now: ContinuousClock.Instant) {
        writing.remove(path)
        guard let (stamp, _) = FileStamp.of(path) else { return passOverNotRegular(path) }
        // Written again after it was taken: taken again once settled.
        if remembered[path] == stamp { return }
        settling[path] = SettlingFile(stamp: stamp, since: now)
    }

    /// Hands on every file whose stamp has stayed the same for the settle time.
    private func settle(_ now: ContinuousClock.Instant) {
        var settled: [SourceFile] = []
        var refreshedMounts = false
        for (path, file) in settling where now - file.since >= file.wait ?? settings.settle {
            guard handed[path] == nil else {
                // Written again while its batch is under way: looked at again once that batch
                // ends (`take`), not every turn of the loop until then.
                settling[path]?.since = now
                continue
            }
            guard let (stamp, _) = FileStamp.of(path) else {
                settling[path] = nil
                continue
            }
            // Changed, or quiet but still open for writing (a writer pausing): waited for again.
            if stamp != file.stamp || OpenWriters.holdOpen(path) == true {
                settling[path] = SettlingFile(stamp: stamp, since: now)
                continue
            }
            settling[path] = nil
            // Opened for writing and closed unchanged while its batch was under way (a sync tool,
            // an editor): it stayed as it was, so it is not handed on again.
            if remembered[path] == stamp { continue }
            if !refreshedMounts {
                mounts = MountTable.current()
                refreshedMounts = true
            }
            if let library = libraryAbove(path) {
                passOver(library.folder, isOurs: library.isOurs)
                continue
            }
            if let site = reportSiteAbove(path) {
                passOverReportSite(site)
                continue
            }
            // A link is judged here, as `import` judges one: followed only to a file of the inbox.
            guard let source = SourceFile.met(at: path, walking: inbox, namedFolder: inbox) else { continue }
            handed[path] = stamp
            settled.append(source)
        }
        if !settled.isEmpty { batches.add(settled) }
    }

    private func take(_ endings: [(String, Ending)]) {
        for (path, ending) in endings {
            let stamp = handed.removeValue(forKey: path)
            var ending = ending
            if recheck.remove(path) != nil, case .unfiled = ending { ending = .retry }
            switch ending {
            case .left:
                removedWhileHanded.remove(path)
                remembered[path] = nil
                unfiled.remove(path)
            case .stayed, .unfiled:
                // Removed (and maybe written anew) after its batch looked at it: it departed.
                if removedWhileHanded.remove(path) != nil {
                    remembered[path] = stamp
                    forget([path])
                    offer(path, now: ContinuousClock.now)
                    continue
                }
                remembered[path] = stamp
                if case .unfiled = ending { unfiled.insert(path) } else { unfiled.remove(path) }
                offer(path, now: ContinuousClock.now)
            case .retry:
                removedWhileHanded.remove(path)
                remembered[path] = nil
                unfiled.remove(path)
                offer(path, now: ContinuousClock.now)
            case .incomplete:
                removedWhileHanded.remove(path)
                remembered[path] = nil
                unfiled.remove(path)
                // Written again while its batch was under way: it settles anew; else it waits long.
                if let stamp, settling[path] == nil, FileStamp.of(path)?.stamp == stamp {
                    settling[path] = SettlingFile(stamp: stamp, since: ContinuousClock.now, wait: settings.cutShortSettle)
                } else {
                    offer(path, now: ContinuousClock.now)
                }
            }
        }
    }
}
