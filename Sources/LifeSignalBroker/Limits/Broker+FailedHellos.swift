import LifeSignalProtocol

extension Broker {
    /// At most `failedHellosPerSecond` hellos with bad credentials from one source address (IPv6:
    /// one /64), so that tokens cannot be guessed at the rate of the connection's request budget.
    /// Over it a `hello` is answered `rate_limited` and closed without being checked at all (nor
    /// the user loaded). True when it was refused.
    func refuseIfTooManyFailedHellos(_ request: Request, from connection: ClientConnection) -> Bool {
        guard let address = connection.tcp.remoteIP,
              !failedHellos.hasToken(address, nowMs: loop.cachedNowMs) else { return false }
        logThrottled(.failedHellosLimited, "hello refused: too many failed hellos from this address", [
            "lifesignal.peer": "\(connection.tcp.remoteAddress)",
        ])
        connection.fail(Self.failedHellosLimited, rid: request.rid)
        return true
    }

    /// A `hello` from `connection` had bad credentials: it counts against its address.
    func recordFailedHello(from connection: ClientConnection) {
        guard let address = connection.tcp.remoteIP else { return }
        _ = failedHellos.take(address, nowMs: loop.cachedNowMs)
    }

    private static let failedHellosLimited = ProtocolError(.rateLimited, "too many failed hellos from this address")
}
