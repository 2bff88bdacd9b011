import LifeSignalProtocol

/// At most `failedAddsPerMinute` `contacts.add`s with an unknown QR code per user (§10), so that
/// QR codes cannot be guessed at the request rate. The bucket is the broker's, per user: another
/// connection or a reload does not start afresh. Over it every `contacts.add` of the user is
/// answered `rate_limited` and not run until a token is back. Both executors ask here.
extension Broker {
    /// The answer a `contacts.add` of `userID` gets without running, or nil if it may run.
    func failedAddsRefusal(for userID: String) -> ProtocolError? {
        failedAdds.hasToken(userID, nowMs: loop.cachedNowMs) ? nil : Self.failedAddsLimited
    }

    /// A `contacts.add` of `userID` named a QR code nobody has.
    func recordFailedAdd(by userID: String) {
        _ = failedAdds.take(userID, nowMs: loop.cachedNowMs)
    }

    private static let failedAddsLimited = ProtocolError(.rateLimited, "too many contacts.add with unknown QR codes")
}
