import Foundation
import Synchronization

/// A `dossier watch` running as a user would start it, its JSON log lines collected as they come.
public final class WatchDaemon: Sendable {
    public let process: Process
    private final class Buffer: Sendable {
        let data = Mutex(Data())
        /// Whether the log's end was read: after the process exits, its last lines may still be
        /// on their way through the pipe.
        let ended = Atomic(false)
    }

    private let log = Buffer()

    /// Starts `dossier watch INBOX --library LIBRARY --log-format json` (with a short settle time
    /// unless `arguments` give one) in `folder`; with `createsSubjects`, `--create` too, so the
    /// inbox's `pets/<id>` folders make their subjects, as most tests' inboxes expect.
    public init(inbox: String, library: String, in folder: URL, arguments: [String] = [],
                environment: [String: String] = [:], launcher: [String] = [], createsSubjects: Bool = true) throws {
        let settle = arguments.contains("--settle") ? [] : ["--settle", "0.3"]
        let create = createsSubjects ? ["--create"] : []
        process = DossierBinary.process(["watch", inbox, "--library", library, "--log-format", "json"] + settle + create + arguments,
                                        in: folder, environment: environment, launcher: launcher)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let log = self.log
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                log.ended.store(true, ordering: .releasing)
            }
            log.data.withLock { $0.append(data) }
        }
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }

    /// Every log line so far, as text.
    public var text: String { log.data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Every whole JSON log line so far, as it was written (counts are numbers).
    public var objects: [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Every whole JSON log line so far, each field as text (a count as its digits).
    public var lines: [[String: String]] {
        objects.map { object in object.mapValues { value in (value as? String) ?? "\(value)" } }
    }

    /// The log lines of one event (`filed`, `duplicate`, `quarantined`, `failed`, `rescan`...).
    public func events(_ name: String) -> [[String: String]] { lines.filter { $0["event"] == name } }

    /// Waits until `condition` holds or `timeout` passes; says whether it held.
    @discardableResult
    public func wait(upTo timeout: Duration = .seconds(30), pollingEvery interval: Duration = .milliseconds(25),
                     until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            if !process.isRunning { return condition() }
            try? await Task.sleep(for: interval)
        }
        return condition()
    }

    /// Sends `signal` and waits for the process to end: its exit status and how long it took.
    public func stop(with signal: Int32 = SIGTERM) async -> (status: Int32, seconds: Double) {
        let started = ContinuousClock.now
        kill(process.processIdentifier, signal)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - started
        let drained = ContinuousClock.now + .seconds(5)
        while !log.ended.load(ordering: .acquiring) && ContinuousClock.now < drained {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return (process.terminationStatus, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
