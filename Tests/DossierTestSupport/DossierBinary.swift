import Foundation

/// Runs the built `dossier` executable, as a user would.
public struct DossierBinary {
    public struct Result {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String

        /// The `--json` lines, parsed.
        public var jsonLines: [[String: Any]] {
            standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        public var outcomes: [[String: Any]] { jsonLines.filter { $0["summary"] == nil } }

        public var summary: [String: Any]? { jsonLines.last?["summary"] as? [String: Any] }
    }

    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Beside the test bundle in the build folder, where `swift test` builds it.
    public static let url: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("dossier")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/dossier")
    }()

    /// - Parameter launcher: a command that runs the binary in its stead (`setpriv --reuid=...`
    ///   to run it as another user); its first word must be an absolute path.
    public static func process(_ arguments: [String], in folder: URL, environment: [String: String] = [:],
                               launcher: [String] = []) -> Process {
        let process = Process()
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(launcher.dropFirst()) + [url.path] + arguments
        } else {
            process.executableURL = url
            process.arguments = arguments
        }
        process.currentDirectoryURL = folder
        var fullEnvironment = ProcessInfo.processInfo.environment
        fullEnvironment.removeValue(forKey: "DOSSIER_LIBRARY")
        fullEnvironment.merge(environment) { $1 }
        process.environment = fullEnvironment
        return process
    }

    @discardableResult
    public static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:],
                           launcher: [String] = []) throws -> Result {
        let process = process(arguments, in: folder, environment: environment, launcher: launcher)
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes while the process runs, so a full pipe cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outputData = Data(), errorData = Data()
        DispatchQueue.global().async(group: group) { outputData = output.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errorData = error.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
    }
}
