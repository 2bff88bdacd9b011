import LifeSignalUV

/// A client's loop timers, created on first use. Loop thread only; `@unchecked Sendable` so the
/// client's deinit can hand them to the loop thread to be closed there.
final class ClientTimers: @unchecked Sendable {
    private let loop: EventLoop
    private var keepaliveTimer: Timer?
    private var reconnectTimer: Timer?
    private var answerTimer: Timer?
    private var stateCacheTimer: Timer?
    /// The answer timer will fire: at or before the deadline of the oldest request in flight.
    var answerTimerIsArmed = false

    init(loop: EventLoop) {
        self.loop = loop
    }

    func keepalive() throws -> Timer {
        if let keepaliveTimer { return keepaliveTimer }
        let timer = try Timer(loop: loop)
        keepaliveTimer = timer
        return timer
    }

    func reconnect() throws -> Timer {
        if let reconnectTimer { return reconnectTimer }
        let timer = try Timer(loop: loop)
        reconnectTimer = timer
        return timer
    }

    func answer() throws -> Timer {
        if let answerTimer { return answerTimer }
        let timer = try Timer(loop: loop)
        answerTimer = timer
        return timer
    }

    func stateCache() throws -> Timer {
        if let stateCacheTimer { return stateCacheTimer }
        let timer = try Timer(loop: loop)
        stateCacheTimer = timer
        return timer
    }

    func stopKeepalive() { keepaliveTimer?.stop() }
    func stopReconnect() { reconnectTimer?.stop() }
    func stopStateCache() { stateCacheTimer?.stop() }

    func closeAll() {
        keepaliveTimer?.close()
        keepaliveTimer = nil
        reconnectTimer?.close()
        reconnectTimer = nil
        answerTimer?.close()
        answerTimer = nil
        stateCacheTimer?.close()
        stateCacheTimer = nil
        answerTimerIsArmed = false
    }
}
