import LifeSignalProtocol

/// Hooks for a phone app's life (issue 27 item 5). A suspended app's socket dies without notice
/// and its timers stop; the app says what happened and the client does what that needs.
extension LifeSignalClient {
    /// The app goes to the background: the connection ends with `bye` (the broker pushes to this
    /// device from now on) and no reconnect is pending. The state stays, to resume from, and is
    /// saved in the state cache before this returns.
    public func didEnterBackground() async {
        // A suspended app's timers stop: a save waiting for its delay would wait till it is back.
        defer { saveStateNow() }
        switch lifecycle {
        case .live:
            try? await bye()
        case .waitingToReconnect:
            timers.stopReconnect()
            lifecycle = .idle
            streams.setConnection(.idle)
        case .idle, .connecting, .closing, .closed:
            break
        }
    }

    /// The app is back: connect, resuming from the state, and return once caught up.
    @discardableResult
    public func willEnterForeground() async throws -> HelloResult {
        try await connect()
    }

    /// The network path changed (Wi-Fi to cellular, a VPN): a live connection may be dead
    /// without TCP knowing, so a keepalive goes now, and the link is dropped and reconnected if
    /// it is not answered within `responseTimeoutMs`; a reconnect waiting out its backoff is
    /// tried now.
    public func networkPathChanged() {
        switch lifecycle {
        case .live:
            guard let link else { return }
            do {
                sendRequest(try link.session.request(Op.keepalive, [:], waiter: nil, at: loop.nowMs), on: link)
            } catch {
                logger.debug("keepalive not sent", metadata: ["lifesignal.error": "\(error)"])
            }
        case .waitingToReconnect:
            timers.stopReconnect()
            backoff.reset()
            startAttempt()
        case .idle, .connecting, .closing, .closed:
            break
        }
    }

    /// A push arrived, perhaps while the app is in the background: connect if need be, catch up,
    /// send what waits in the outbox, and return the state; a connection opened for this ends
    /// again (`bye`) unless `staysConnected`.
    @discardableResult
    public func pushReceived(staysConnected: Bool = false) async throws -> DeviceState? {
        let wasLive = isConnected
        if !wasLive { try await connect() }
        await flushOutbox()
        let current = state
        if !wasLive && !staysConnected { try? await bye() }
        return current
    }
}
