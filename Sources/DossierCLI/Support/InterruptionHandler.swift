import Dispatch
import Foundation

/// Turns the first Ctrl-C or SIGTERM into a graceful stop: the files under way are finished and
/// filed, no new ones are started, and the summary is printed. A second signal ends the process
/// at once, which is safe too: filing is atomic and staging is cleared by the next run.
final class InterruptionHandler {
    private let sources: [any DispatchSourceSignal]

    init(onInterrupt: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                StandardStreams.writeError("\ndossier: stopping after the files under way (signal again to stop now)\n")
                signal(number, SIG_DFL)
                source.cancel()
                onInterrupt()
            }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
