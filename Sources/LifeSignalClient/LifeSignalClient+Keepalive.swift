import LifeSignalProtocol

// The transport heartbeat (PROTOCOL.md §3): the broker closes a connection silent for 2 × heartbeatMs,
// so a `keepalive` goes out whenever nothing was sent for heartbeatMs / 2. The same timer notices a
// broker that has gone silent for 2 × heartbeatMs, which TCP alone may not report for minutes.
extension LifeSignalClient {
    func startKeepalive(heartbeatMs: Int64) {
        let interval = UInt64(max(1, heartbeatMs / 2))
        armKeepalive(afterMs: interval, interval: interval)
    }

    func stopKeepalive() {
        timers.stopKeepalive()
    }

    private func armKeepalive(afterMs delay: UInt64, interval: UInt64) {
        timers.keepalive.start(afterMs: max(1, delay)) { [weak self] in
            self?.assumeIsolated { $0.keepaliveDue(interval: interval) }
        }
    }

    private func keepaliveDue(interval: UInt64) {
        guard lifecycle == .live, let link else { return }
        let now = loop.nowMs
        if now &- link.lastHeardMs >= 4 * interval {
            drop(link, reason: .connectionLost("nothing from the broker for \(now &- link.lastHeardMs) ms"))
            return
        }
        let idle = now &- link.lastSentMs
        guard idle >= interval else {
            armKeepalive(afterMs: interval - idle, interval: interval)
            return
        }
        do {
            sendRequest(try link.session.request(Op.keepalive, [:], waiter: nil, at: now), on: link)
        } catch {
            logger.debug("keepalive not sent", metadata: ["lifesignal.error": "\(error)"])
        }
        armKeepalive(afterMs: interval, interval: interval)
    }
}
