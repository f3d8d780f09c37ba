import Foundation
import Synchronization

/// Runs the built `dossier` on a terminal of its own (util-linux `script` gives it one), so a test
/// can read what a person at the terminal sees and answer a question as they would: only once the
/// question is on the screen, as a person types.
public struct TerminalSession {
    public struct Result {
        public let status: Int32
        /// Everything the terminal showed (standard output and error, and the answer as typed),
        /// with the terminal's line ends (`\r\n`) as `\n`.
        public let screen: String
    }

    public static let script = "/usr/bin/script"

    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: script) }

    /// Runs `dossier ARGUMENTS`; once the screen ends with `question`, types `answer` and Enter
    /// (nil: ends the input instead, as Ctrl-D does).
    public static func run(_ arguments: [String], in folder: URL, answering answer: String?,
                           after question: String, timeout: Duration = .seconds(30)) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        let command = ([DossierBinary.url.path] + arguments).map(quoted).joined(separator: " ")
        // -e: the command's exit status; -q: no start and end lines; /dev/null: no typescript file.
        process.arguments = ["-qec", "exec \(command)", "/dev/null"]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DOSSIER_LIBRARY")
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let seen = Mutex(Data())
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            seen.withLock { $0.append(chunk) }
        }
        try process.run()
        let screen = { String(decoding: seen.withLock { $0 }, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n") }
        let deadline = ContinuousClock.now + timeout
        while !screen().hasSuffix(question) && process.isRunning && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        if let answer { input.fileHandleForWriting.write(Data((answer + "\n").utf8)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        if let rest = try output.fileHandleForReading.readToEnd() { seen.withLock { $0.append(rest) } }
        return Result(status: process.terminationStatus, screen: screen())
    }

    /// One word for the shell, whatever it holds.
    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
