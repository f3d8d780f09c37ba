import ArgumentParser
import DossierCore
import DossierReport
import DossierWatch
import Foundation
import Logging
import ServiceLifecycle

/// `dossier watch INBOX`: the daemon that files whatever lands in an inbox folder.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch an inbox folder and file every photo and log that lands in it, until stopped.",
        discussion: """
            Everything already in the inbox is imported first, then whatever arrives: routed as `dossier import` \
            routes (INBOX/pets/<id>/..., INBOX/children/<id>/..., names in logs and file names), filed, and then \
            removed from the inbox, only once the library's copy is durable, checked and indexed. A file is \
            taken once it was closed or moved in and its size and time stayed the same for --settle seconds; \
            names sync and download tools use while writing (dotfiles, *.part, *.partial, *.tmp, *.crdownload, \
            *.!sync, ~$*) are left until renamed. A file that cannot be filed goes to \
            <library>/quarantine/<day>/ with a note saying why (see `dossier quarantine`). Folders it empties are \
            removed, except INBOX/pets/<id> and INBOX/children/<id> of the library's subjects.

            The library must exist (`dossier init` makes one); the daemon never makes one, and files only into \
            the library it started with, known by its id: while it is not at its path (a drive unplugged, the \
            folder moved, another library in its place) nothing is filed, every inbox file stays, and the log \
            says so once (library-gone), then again when it is back (library-back). An inbox that is, holds or \
            lies inside the library is refused, however it is mounted; a Dossier library found in the inbox is \
            never walked. A file that can be neither filed nor quarantined (unreadable, a link that leads \
            nowhere) stays, listed by `dossier quarantine list` as stuck, and is tried again when it changes \
            and on SIGHUP. The daemon's lock is in /run/dossier (root, or the account that owns it: the system \
            unit's) or /run/user/<uid>, never in the inbox.

            The library is locked only while a batch is filed: `dossier import` and the other commands work \
            beside the daemon. SIGTERM or Ctrl-C finishes the files under way and exits 0 (within \
            --shutdown-timeout); SIGHUP reads the inbox again. Under systemd (Type=notify) it says when it is \
            ready and keeps the watchdog fed; scripts/install installs its units (dossier-watch.service).

            Examples:
              dossier watch ~/Inbox --library ~/Dossier
              dossier watch ~/Inbox --library ~/Dossier --log-format json
              dossier watch /mnt/nas/inbox --poll 30
              dossier watch ~/Inbox --keep
            """)

    @Argument(help: ArgumentHelp("The inbox folder to watch.", valueName: "inbox"))
    var inbox: String

    @OptionGroup var libraryOptions: LibraryOptions

    @OptionGroup var photoOptions: PhotoOptions

    /// What each number option may be, as its help says: from what makes sense to the longest
    /// that still is a setting (a day, a week, an hour) rather than a typo or an overflow.
    static let settleRange: ClosedRange<Double> = 0...86_400
    static let pollRange: ClosedRange<Double> = 0.1...86_400
    static let rescanRange: ClosedRange<Double> = 0.01...10_080
    static let shutdownTimeoutRange: ClosedRange<Double> = 0.01...3_600

    // Numbers are read even when they start with a dash, so `--settle -1` is refused for what
    // it is rather than as a missing value.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds a file's size and time must stay the same before it is taken "
            + "(\(CommandSupport.span(WatchCommand.settleRange))).", valueName: "seconds"))
    var settle: Double = 2

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Read the inbox every so many seconds instead of using inotify (network shares: inotify does not see other "
            + "hosts' writes; \(CommandSupport.span(WatchCommand.pollRange))).", valueName: "seconds"))
    var poll: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Read the whole inbox again every so many minutes, whatever the events said "
            + "(\(CommandSupport.span(WatchCommand.rescanRange)), a week).", valueName: "minutes"))
    var rescan: Double = 10

    @Flag(help: "Leave sources in the inbox: the index remembers them, and one that changes is imported again.")
    var keep = false

    @Flag(help: ArgumentHelp(
        "Make a subject for each pets/<id> or children/<id> folder in the inbox that names none.",
        discussion: "Without it the files of such a folder are quarantined, the reason naming the nearest ids: a typo "
            + "in a folder name never becomes a subject. Finish them with `dossier quarantine retry`."))
    var create = false

    @Flag(help: ArgumentHelp("Refresh the library's report (<library>/report, as `dossier report` writes it) after each batch.",
                             discussion: "Only the pages of subjects the batch changed are written again."))
    var report = false

    @Option(help: ArgumentHelp("How each log line is written: text, or json (one object per line).", valueName: "format"))
    var logFormat: String = "text"

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds the files under way may take after SIGTERM or Ctrl-C "
            + "(\(CommandSupport.span(WatchCommand.shutdownTimeoutRange))).", valueName: "seconds"))
    var shutdownTimeout: Double = 10

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "How many files to work on at once (\(CommandSupport.span(CommandSupport.jobRange)); default: the number of cores).",
        valueName: "n"))
    var jobs: Int?

    func validate() throws {
        try CommandSupport.check(settle, option: "--settle", in: WatchCommand.settleRange, unit: "seconds")
        if let poll { try CommandSupport.check(poll, option: "--poll", in: WatchCommand.pollRange, unit: "seconds") }
        try CommandSupport.check(rescan, option: "--rescan", in: WatchCommand.rescanRange, unit: "minutes")
        try CommandSupport.check(shutdownTimeout, option: "--shutdown-timeout", in: WatchCommand.shutdownTimeoutRange,
                                 unit: "seconds")
        guard WatchLogHandler.Format(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format: '\(logFormat)' is not one of text, json.")
        }
        if let jobs { try CommandSupport.check(jobs, option: "--jobs", in: CommandSupport.jobRange) }
    }

    func run() async throws {
        WatchCommand.unblockSignals()
        let layout = libraryOptions.layout
        // Watched by its real path: a link named as the inbox is the user's choice, but inotify is
        // told not to follow links, and events name folders by where they really are.
        let named = URL(fileURLWithPath: self.inbox).standardizedFileURL.path
        let inbox = SourcePath.withFileSystemPath(named) { realpath($0, nil) }.map { resolved in
            defer { free(resolved) }
            return SourcePath.string(fromCString: resolved)
        } ?? named
        try WatchCommand.check(inbox: inbox, library: layout)
        let lock: InboxLock
        do { lock = try InboxLock.acquire(inbox: inbox) } catch {
            StandardStreams.writeError("dossier: \(error)\n")
            throw ExitCode(2)
        }
        defer { withExtendedLifetime(lock) {} }
        let format = WatchLogHandler.Format(rawValue: logFormat) ?? .text
        let logger = Logger(label: "dossier") { _ in WatchLogHandler(format: format) }
        let (identity, stuck) = try WatchCommand.openLibrary(layout, inbox: inbox, logger: logger)
        let notifier = SystemdNotifier()
        let watcher = InboxWatcher(
            inbox: inbox,
            settings: InboxWatcher.Settings(settle: WatchCommand.duration(settle), poll: poll.map(WatchCommand.duration),
                                            rescan: WatchCommand.duration(rescan * 60),
                                            heartbeat: SystemdNotifier.watchdogInterval(),
                                            library: LibraryBoundary(root: layout.root.path)),
            logger: logger,
            onFirstScan: { found in
                logger.record(.watching, ["source": "\(SourcePath.displayed(inbox))", "library": "\(layout.root.path)",
                                          "found": .stringConvertible(found)])
                notifier?.ready(status: "watching \(inbox); \(found) files found at the start")
            },
            onHeartbeat: { notifier?.watchdog() })
        let registry = try BuiltinPlugins.registry(renditions: photoOptions.renditions)
        let afterBatch = try report ? WatchCommand.refreshingReport(layout, logger: logger) : nil
        let service = ImportService(
            watcher: watcher, layout: layout, libraryID: identity.id, stuck: stuck,
            settings: ImportService.Settings(keep: keep, jobs: jobs ?? ImportOptions.defaultJobs,
                                             shutdownTimeout: WatchCommand.duration(shutdownTimeout),
                                             originals: photoOptions.originals, createsSubjects: create),
            logger: logger, notifier: notifier, afterBatch: afterBatch,
            makePipeline: { options in ImportPipeline(registry: registry, layout: layout, options: options, logger: logger) })
        // The group's own messages (service started, signal caught) are not events a user needs.
        var quiet = Logger(label: "dossier.lifecycle") { _ in WatchLogHandler(format: format) }
        quiet.logLevel = .warning
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: service)], gracefulShutdownSignals: [.sigterm, .sigint], logger: quiet))
        do {
            try await group.run()
        } catch {
            logger.record(.failed, level: .error, ["reason": "\(error)"])
            throw ExitCode(1)
        }
        logger.record(.stopped, ["reason": "shut down"])
    }

    /// An inbox that is not a folder is a mistake (a typo), not one to wait for; a library that
    /// is not there is never made by the daemon (`dossier init` makes one); and the library and
    /// the inbox must not hold each other, or the daemon would file its own library. They are
    /// compared folder by folder by device and inode, so neither a link, `..`, nor a second
    /// mount of the same disk (Docker's `-v /srv/x:/inbox -v /srv/x/Library:/library`) hides it.
    static func check(inbox: String, library: LibraryLayout) throws {
        guard let info = SourcePath.status(inbox), info.st_mode & S_IFMT == S_IFDIR else {
            StandardStreams.writeError("dossier: the inbox \(SourcePath.displayed(inbox)) is not a folder\n")
            throw ExitCode(2)
        }
        let libraryRoot = library.root.path
        do throws(LibraryError) {
            switch try LibraryIdentity.state(of: library) {
            case .absent: throw .noLibrary(path: libraryRoot)
            case .unidentified: throw .noLibraryID(path: libraryRoot)
            case .identified: break
            }
        } catch {
            let never = [.noLibrary(path: libraryRoot), .noLibraryID(path: libraryRoot)].contains(error)
                ? "; `dossier watch` never makes one" : ""
            StandardStreams.writeError("dossier: \(error)\(never)\n")
            throw ExitCode(2)
        }
        let boundary = LibraryBoundary(root: libraryRoot)
        let overlap: String?
        if SkippedNames.isReportSite(inbox) {
            StandardStreams.writeError("dossier: the inbox \(SourcePath.displayed(inbox)) is a Dossier report's site (pages made from a "
                + "library by `dossier report`); give the daemon an inbox of its own, and the report another --out\n")
            throw ExitCode(2)
        }
        if boundary.contains(inbox) {
            overlap = "the inbox lies inside the library"
        } else if LibraryBoundary(root: inbox).contains(libraryRoot) {
            overlap = "the library lies inside the inbox"
        } else if let seen = SourceDiscovery(library: boundary).discover([inbox]).lazy.compactMap({ found -> String? in
            if case .passedOver(let path, true) = found { return path } else { return nil }
        }).first {
            overlap = "the inbox holds the library, or a folder of it, at \(SourcePath.displayed(seen))"
        } else {
            overlap = nil
        }
        if let overlap {
            StandardStreams.writeError("dossier: the inbox \(SourcePath.displayed(inbox)) and the library \(libraryRoot) "
                + "must not lie inside each other (\(overlap)); give a --library outside the inbox\n")
            throw ExitCode(2)
        }
    }

    /// Opens the library once at the start (giving one made before ids its id, rebuilding a
    /// missing index, each said in the log): the id the daemon files into from then on, and the
    /// inbox files its index lists as stuck. Files of the inbox that were filed and stayed
    /// (`--keep`) and were deleted while the daemon was not running are recorded as departed.
    static func openLibrary(_ layout: LibraryLayout, inbox: String, logger: Logger) throws -> (LibraryIdentity, Set<String>) {
        do {
            let session = try LibrarySession.open(layout, access: .existing, dryRun: false, waitForLock: true,
                                                  whileWaiting: { holder in
                logger.record(.waiting, ["reason": "the library is in use (\(holder))"])
            })
            defer { session.close() }
            for notice in session.notices { logger.record(.library, level: .warning, ["reason": "\(notice)"]) }
            guard let identity = session.identity, let index = session.index else { throw LibraryError.noLibrary(path: layout.root.path) }
            try index.recordDeparturesOfFilesGone(under: inbox)
            return (identity, Set(try index.stuckSources().map(\.path)))
        } catch let error as LibraryError {
            StandardStreams.writeError("dossier: \(error)\n")
            throw ExitCode(2)
        }
    }

    /// What `--report` runs after each batch: the report, made as `dossier report` makes it, its
    /// outcome logged (a failure too: the daemon files on whatever the report meets).
    static func refreshingReport(_ layout: LibraryLayout, logger: Logger) throws -> @Sendable () -> Void {
        let output = try ReportCommand.output(nil, layout: layout)
        // A report's folder holding a person's files is refused at the start, as `dossier
        // report` refuses it (the daemon has no --force); each report looks again.
        do {
            try output.checkWritable(force: false)
        } catch {
            StandardStreams.writeError("dossier: --report: \(error)\n")
            throw ExitCode(2)
        }
        return {
            do {
                let today = RecordDate.today(in: try LibraryTimeZone.of(layout))
                let outcome = try ReportSite(layout: layout, output: output, today: today).generate(waitingForAnotherReport: {
                    logger.record(.report, ["reason": "another report of the site is being written; waiting for it"])
                })
                var fields: Logger.Metadata = ["files": .stringConvertible(outcome.written.count), "destination": "\(output.path)/index.html"]
                let removed = outcome.removed.count + outcome.yearPagesRemoved.count
                if removed > 0 { fields["removed"] = .stringConvertible(removed) }
                logger.record(.report, fields)
                for warning in outcome.warnings { logger.record(.report, level: .warning, ["reason": "\(warning)"]) }
                for failure in outcome.failures { logger.record(.report, level: .warning, ["reason": "\(failure)"]) }
                for name in outcome.leftAlone {
                    logger.record(.report, level: .warning, ["reason": "\(ReportCommand.leftAlone(name, in: output))"])
                }
            } catch {
                logger.record(.failed, level: .error, ["reason": "the report could not be written: \(error)"])
            }
        }
    }

    /// Seconds as a duration. `validate()` holds every option to its range; this never traps even
    /// so: NaN and less than nothing are zero, more than an Int64 of nanoseconds (292 years) is that.
    static func duration(_ seconds: Double) -> Duration {
        let nanoseconds = (seconds * 1e9).rounded()
        guard nanoseconds > 0 else { return .zero }
        return .nanoseconds(nanoseconds < 0x1p63 ? Int64(nanoseconds) : .max)
    }

    /// Signals blocked by whoever started the process (test runners and some supervisors block
    /// them, and a blocked mask is inherited) would never reach the service group's handlers.
    static func unblockSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, number) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
