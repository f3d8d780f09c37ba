/// A one-line progress bar on standard error, drawn at most ten times a second and only when
/// standard error is a terminal (a log or a pipe gets none of its carriage returns).
struct ProgressBar {
    private let enabled: Bool
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var shown = false

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Draws `[#####-----] completed/total`, then `detail` (say, the bytes read so far).
    mutating func draw(completed: Int, total: Int, detail: String = "") {
        guard enabled, total > 0 else { return }
        let now = ContinuousClock.now
        guard completed == total || now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        let width = 30
        let filled = width * completed / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        StandardStreams.writeProgressBar("\r[\(bar)] \(completed)/\(total)\(detail.isEmpty ? "" : " \(detail)")\u{1B}[K")
        shown = true
    }

    /// Erases the bar, so a line written next starts at the left margin.
    mutating func clear() {
        guard shown else { return }
        StandardStreams.writeProgressBar("\r\u{1B}[K")
        shown = false
    }
}
