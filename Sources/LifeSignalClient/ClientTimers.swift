import LifeSignalUV

/// A client's loop timers, created on first use. Loop thread only; `@unchecked Sendable` so the
/// client's deinit can hand them to the loop thread to be closed there.
final class ClientTimers: @unchecked Sendable {
    private let loop: EventLoop
    private var keepaliveTimer: Timer?
    private var reconnectTimer: Timer?

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

    func stopKeepalive() { keepaliveTimer?.stop() }
    func stopReconnect() { reconnectTimer?.stop() }

    func closeAll() {
        keepaliveTimer?.close()
        keepaliveTimer = nil
        reconnectTimer?.close()
        reconnectTimer = nil
    }
}
