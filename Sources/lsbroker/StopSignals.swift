import Foundation
import LifeSignalUV
import Synchronization

/// Turns SIGINT and SIGTERM into a flag, so that a polling command finishes its output and exits 0.
enum StopSignals {
    // An atomic store is async-signal-safe; the handler does nothing else.
    private static let received = Atomic<Bool>(false)

    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { _ in StopSignals.received.store(true, ordering: .relaxed) }
        }
        SignalWatcher.unblock([SIGINT, SIGTERM])
    }

    static var stopRequested: Bool { received.load(ordering: .relaxed) }
}
