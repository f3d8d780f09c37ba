import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `dossier` executable as DossierBinary.run does, and says how it ended and what
/// it cost: whether a signal killed it (a SIGBUS is no exit status), and its peak resident memory.
/// Both come from wait4 on this one process, so they are its own, whatever else the tests run
/// beside it at the time.
public struct MeasuredRun {
    /// The exit status; nil when a signal ended the process.
    public let status: Int32?
    /// The signal that ended the process; nil when it exited.
    public let signal: Int32?
    /// The most memory the process held resident at once, in bytes.
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

        // env moves into the folder and becomes dossier (exec: the same process, so wait4 measures
        // dossier); Swift's Glibc does not offer posix_spawn_file_actions_addchdir_np.
        let command = ["/usr/bin/env", "--chdir=\(folder.path)", DossierBinary.url.path] + arguments
        let argv = command.map { strdup($0) } + [nil]
        let envp = fullEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }

        var waitStatus: Int32 = 0
        var usage = rusage()
        while wait4(pid, &waitStatus, 0, &usage) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        // WIFSIGNALED and friends are macros Swift does not import: the low 7 bits are the signal.
        let signalNumber = waitStatus & 0x7F
        status = signalNumber == 0 ? (waitStatus >> 8) & 0xFF : nil
        signal = signalNumber == 0 ? nil : signalNumber
        peakResidentBytes = Int(usage.ru_maxrss) * 1024
        standardOutput = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data(), as: UTF8.self)
        standardError = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data(), as: UTF8.self)
    }
}
