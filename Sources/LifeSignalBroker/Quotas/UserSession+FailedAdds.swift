import LifeSignalProtocol

extension UserSession {
    /// At most `failedAddsPerMinute` `contacts.add`s with an unknown QR code per user (§10), so
    /// that QR codes cannot be guessed at the request rate. The bucket is the broker's, per user:
    /// another connection or a reload does not start afresh. Over it every `contacts.add` of the
    /// user is answered `rate_limited` and not run until a token is back. True when refused.
    func refuseIfTooManyFailedAdds(_ request: Request, from connection: ClientConnection) -> Bool {
        let nowMs = loop.cachedNowMs
        guard !broker.onLoop({ $0.failedAdds.hasToken(userID, nowMs: nowMs) }) else { return false }
        connection.respond(error: Self.failedAddsLimited, rid: request.rid)
        return true
    }

    /// A `contacts.add` of this user named a QR code nobody has.
    func recordFailedAdd() {
        let nowMs = loop.cachedNowMs
        broker.onLoop { _ = $0.failedAdds.take(userID, nowMs: nowMs) }
    }

    private static let failedAddsLimited = ProtocolError(.rateLimited, "too many contacts.add with unknown QR codes")
}
