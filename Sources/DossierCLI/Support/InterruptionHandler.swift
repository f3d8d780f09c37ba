import Foundation
import Synchronization

/// Signals received so far (SIGINT or SIGTERM), and the first one's number: read by the C-level
/// handler, which may only touch such atomics and make async-signal-safe calls.
private let signalsReceived = Atomic<Int>(0)
private let firstSignal = Atomic<Int32>(0)
/// The write end of a pipe the handler wakes the watching thread through (the self-pipe trick).
private let wakeDescriptor = Atomic<Int32>(-1)

/// Turns the first Ctrl-C or SIGTERM into a graceful stop: the files under way are finished (or,
/// for a long log, abandoned whole at its next batch) and no new ones are started; the summary
/// says `interrupted` and the command exits 130 (143 for SIGTERM). A second signal ends the
/// process at once, which is safe too: filing is atomic, the index commits in transactions, and
/// staging is cleared by the next run.
///
/// The signals are caught by a plain C handler rather than a dispatch source: a dispatch source
/// coalesces two signals that arrive before its handler runs, so a quick second Ctrl-C was lost.
final class InterruptionHandler: @unchecked Sendable {
    private let readDescriptor: Int32
    private let thread: Thread

    init(onInterrupt: @escaping @Sendable () -> Void) {
        var descriptors: [Int32] = [0, 0]
        pipe(&descriptors)
        readDescriptor = descriptors[0]
        wakeDescriptor.store(descriptors[1], ordering: .sequentiallyConsistent)
        let reading = descriptors[0]
        // A parent may have started this process with the signals blocked (a blocked mask is
        // inherited, and test runners and some supervisors block them on their threads): they
        // would then wait, pending, until the import ends. Unblocked here, they reach this thread
        // and the watching one started below, which inherits the mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(reading, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                StandardStreams.writeError("\ndossier: stopping after the files under way (signal again to stop now)\n")
                onInterrupt()
                return
            }
        }
        thread.start()
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if signalsReceived.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                    _exit(128 + number)
                }
                firstSignal.store(number, ordering: .sequentiallyConsistent)
                var byte: UInt8 = 1
                _ = write(wakeDescriptor.load(ordering: .sequentiallyConsistent), &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// The exit status for the signal that interrupted the run (130 for SIGINT, 143 for
    /// SIGTERM); nil when none came.
    var exitStatus: Int32? {
        let number = firstSignal.load(ordering: .sequentiallyConsistent)
        return number == 0 ? nil : 128 + number
    }
}
