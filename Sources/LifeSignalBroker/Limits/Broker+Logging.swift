import Logging

extension Broker {
    /// Counts a refusal, and logs it at warning level at most once per `LogThrottle.intervalMs`
    /// for each kind. The metadata is built only for a line that is logged: under a flood most are
    /// suppressed, and each would format the peer's address.
    func logThrottled(_ kind: LogThrottle.Kind, _ message: Logger.Message,
                      _ metadata: @autoclosure () -> Logger.Metadata) {
        counters.refused(kind)
        guard let suppressed = logThrottle.admit(kind, nowMs: loop.cachedNowMs) else { return }
        var metadata = metadata()
        if suppressed > 0 { metadata["lifesignal.suppressed"] = "\(suppressed)" }
        logger.warning(message, metadata: metadata)
    }
}
