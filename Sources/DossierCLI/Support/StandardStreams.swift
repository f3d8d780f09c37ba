import DossierCore
import Foundation

/// Unbuffered writes to the standard streams, so JSON lines and progress reach a pipe or a
/// terminal as they happen and in the order they were written.
///
/// Whatever is written may hold names from the file system, so every control character in it
/// is escaped (`SourcePath.displayed`) but the line feeds its own lines end in: a name cannot
/// retitle the terminal or move its cursor. A line feed inside a name would still split its line
/// in two: each field that holds a name is passed through `SourcePath.displayed` on its own.
enum StandardStreams {
    static func writeOut(_ text: String) { write(SourcePath.displayed(text, keepingNewlines: true), to: STDOUT_FILENO) }

    static func writeError(_ text: String) { write(SourcePath.displayed(text, keepingNewlines: true), to: STDERR_FILENO) }

    /// The progress bar, as it is: its own carriage return and erase-line sequence must reach the
    /// terminal. It holds counts, never a name.
    static func writeProgressBar(_ text: String) { write(text, to: STDERR_FILENO) }

    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
