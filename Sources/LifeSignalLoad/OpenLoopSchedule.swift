import LifeSignalUV

/// An open-loop schedule: request i is due at start + i/rate, whatever the broker does. A loop
/// timer (every `tickMs`) hands each request that has come due to `send` with its index and due
/// time, however many that is: the schedule never waits for the broker. Scenarios that measure
/// from the intended send time use the due time as the request's start (the correction for
/// coordinated omission). Used by pings, fanout and idle's keepalives. Loop thread only.
package final class OpenLoopSchedule {
    /// Requests per second, in total.
    package let rate: Double
    private let tickMs: UInt64
    private var timer: Timer?
    private var startNs: UInt64 = 0
    /// Requests handed out so far.
    private(set) var next: UInt64 = 0

    package init(rate: Double, tickMs: UInt64 = 1) {
        self.rate = rate
        self.tickMs = tickMs
    }

    /// Starts the clock (request 0 is due now). Each tick first asks `isRunning`; false stops
    /// the schedule for good.
    package func start(
        on loop: EventLoop, while isRunning: @escaping () -> Bool,
        send: @escaping (_ index: UInt64, _ dueNs: UInt64) -> Void
    ) throws {
        guard timer == nil else { return }
        let timer = try Timer(loop: loop)
        self.timer = timer
        startNs = MonotonicClock.nowNs()
        timer.start(afterMs: tickMs, repeatMs: tickMs) { [unowned self] in
            guard isRunning() else { return stop() }
            sendDue(send)
        }
    }

    package func stop() {
        timer?.close()
    }

    private func sendDue(_ send: (UInt64, UInt64) -> Void) {
        let elapsed = MonotonicClock.nowNs() - startNs
        // Requests due by now: floor(elapsed × rate) + 1 (request 0 is due at the start).
        let due = UInt64((Double(elapsed) * rate / 1e9).rounded(.down)) + 1
        while next < due {
            let dueNs = startNs + UInt64((Double(next) * 1e9 / rate).rounded())
            let index = next
            next += 1
            send(index, dueNs)
        }
    }
}
