import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `dossier` executable as DossierBinary.run does, and says how it ended and what
/// it cost: whether a signal killed it (a SIGBUS is no exit status), and its peak resident memory.
///
/// The peak is the process's own VmHWM, read from /proc every few milliseconds while it runs. Its
/// rusage would not do: a child counts the memory of the process that started it (the test runner,
/// holding every test's inputs) as its own, since it shares or copies that memory until it execs.
public struct MeasuredRun {
    /// The exit status; nil when a signal ended the process.
    public let status: Int32?
    /// The signal that ended the process; nil when it exited.
    public let signal: Int32?
    /// The most memory the process held resident at once, in bytes, as last read before it ended.
    public let peakResidentBytes: Int
    public let standardOutput: String
    public let standardError: String

    public init(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws {
        let outputs = try TemporaryFolder()
        let outputPath = outputs.path("stdout"), errorPath = outputs.path("stderr")
        var fullEnvironment = ProcessInfo.processInfo.environment
        fullEnvironment.removeValue(forKey: "DOSSIER_LIBRARY")
        fullEnvironment.merge(environment) { $1 }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // env moves into the folder and becomes dossier (exec: the same process); Swift's Glibc
        // does not offer posix_spawn_file_actions_addchdir_np.
        let command = ["/usr/bin/env", "--chdir=\(folder.path)", DossierBinary.url.path] + arguments
        let argv = command.map { strdup($0) } + [nil]
        let envp = fullEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }

        var peak = 0
        var waitStatus: Int32 = 0
        while true {
            let ended = waitpid(pid, &waitStatus, WNOHANG)
            if ended == pid { break }
            guard ended == 0 || errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            peak = max(peak, MeasuredRun.highWaterMark(of: pid) ?? 0)
            usleep(2_000)
        }
        // WIFSIGNALED and friends are macros Swift does not import: the low 7 bits are the signal.
        let signalNumber = waitStatus & 0x7F
        status = signalNumber == 0 ? (waitStatus >> 8) & 0xFF : nil
        signal = signalNumber == 0 ? nil : signalNumber
        peakResidentBytes = peak
        standardOutput = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data(), as: UTF8.self)
        standardError = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data(), as: UTF8.self)
    }

    /// The VmHWM line of /proc/<pid>/status, in bytes: the most the process has held resident
    /// since it last exec'd. Nil once it has exited.
    static func highWaterMark(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
