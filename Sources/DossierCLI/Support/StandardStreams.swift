import DossierCore
import Foundation

/// Unbuffered writes to the standard streams, so JSON lines and progress reach a pipe or a
/// terminal as they happen and in the order they were written.
enum StandardStreams {
    static func writeOut(_ text: String) { write(text, to: STDOUT_FILENO) }

    static func writeError(_ text: String) { write(text, to: STDERR_FILENO) }

    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    private static func write(_ text: String, to descriptor: Int32) {
        // A path that is not UTF-8 shows its odd bytes as U+FFFD.
        var bytes = Array(SourcePath.displayed(text).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
