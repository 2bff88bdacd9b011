import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a flag, so that a polling command finishes its output and exits 0.
enum StopSignals {
    // An atomic store is async-signal-safe; the handler does nothing else.
    private static let received = Atomic<Bool>(false)

    static func install() {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { _ in StopSignals.received.store(true, ordering: .relaxed) }
            sigaddset(&mask, signalNumber)
        }
        // A parent may have started us with them blocked (Foundation's Process does).
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    static var stopRequested: Bool { received.load(ordering: .relaxed) }
}
