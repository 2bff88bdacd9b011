import LifeSignalProtocol
import LifeSignalUV

extension Broker {
    /// One timer for every connection's hello timeout and heartbeat (§3), which also lets idle
    /// connections give back their outbound buffers. A sweep costs a few nanoseconds per
    /// connection, and a process holds at most ~20,000 of them (ARCHITECTURE.md, "One process"),
    /// which is far cheaper than a libuv timer per connection re-armed on every frame.
    func startSweeping() {
        guard let serving, let timer = try? Timer(loop: loop) else { return }
        timer.unref()
        let interval = UInt64(max(10, min(configuration.helloTimeoutMs, configuration.heartbeatMs) / 4))
        timer.start(afterMs: interval, repeatMs: interval) { [unowned self] in
            onLoop { broker in
                broker.closeTimedOutConnections()
                broker.endEasedOverloads()
            }
        }
        serving.sweepTimer = timer
    }

    /// A connection is closed only if it was already past its limit when the previous sweep ran.
    /// Timers run before the loop reads its sockets, and the loop read every socket at least once
    /// since that sweep: so what a device sent before its limit has been heard, even when the loop
    /// itself was late (stalled, or starved of CPU) and its bytes waited in the kernel. Judged at
    /// `now`, a loop back from a long stall would close every device whose keepalive or `register`
    /// it had not read yet. This makes the limits up to one sweep interval longer.
    func closeTimedOutConnections() {
        let now = loop.monotonicNowMs()
        defer { previousSweepMs = now }
        guard let judgedAt = previousSweepMs else { return }
        let helloTimeout = UInt64(configuration.helloTimeoutMs)
        let silenceLimit = UInt64(2 * configuration.heartbeatMs)
        for connection in connections.values {
            switch connection.state.sweepVerdict(judgedAtMs: judgedAt, helloTimeoutMs: helloTimeout,
                                                  silenceLimitMs: silenceLimit) {
            case .failHelloTimeout:
                connection.cut(.helloTimeout, ProtocolError(.unauthenticated, "no hello within \(helloTimeout) ms"))
            case .closeSilent:
                connection.cut(.heartbeat, nil, ["lifesignal.silent_ms": .stringConvertible(judgedAt &- connection.state.lastHeardMs)])
            case .heard:
                connection.tcp.startBusyPeriod()
            case .keep:
                break
            }
        }
    }
}
