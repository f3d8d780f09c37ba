import Foundation

/// Asking the person at the terminal before something that cannot be undone.
enum Consent {
    /// A person can be asked only when the question reaches a terminal and the answer comes from
    /// one: a script's standard input may hold anything, and a "y" it happened to carry is no
    /// one's consent.
    static var canAsk: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// Asks on standard error and reads one line: `y` or `yes` (in any case) is consent; anything
    /// else, an empty line or the end of input, is not, so a slip of the Enter key keeps the files.
    static func ask(_ question: String) -> Bool {
        StandardStreams.writeError("\(question) [y/N] ")
        guard let answer = readLine(strippingNewline: true) else {
            StandardStreams.writeError("\n")
            return false
        }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
