import Logging

extension Broker {
    /// Counts a refusal, and logs it at warning level at most once per `LogThrottle.intervalMs`
    /// for each kind. The metadata is built only for a line that is logged: under a flood most are
    /// suppressed, and each would format the peer's address.
    func logThrottled(_ kind: LogThrottle.Kind, _ message: Logger.Message,
                      _ metadata: @autoclosure () -> Logger.Metadata) {
        counters.refused(kind)
        logRateLimited(.warning, key: kind.metricLabel, message, metadata())
    }

    /// Counts a connection the broker ends on its own, and logs it at info level at most once per
    /// `LogThrottle.intervalMs` for each reason.
    func logCut(_ reason: ConnectionCut, _ metadata: @autoclosure () -> Logger.Metadata) {
        counters.cut(reason)
        logRateLimited(.info, key: "cut." + reason.metricLabel, "\(reason.logMessage)",
                       metadata().merging(["lifesignal.reason": "\(reason.metricLabel)"]) { current, _ in current })
    }

    /// A store failure, logged at error level at most once per `LogThrottle.intervalMs` for each
    /// message: a full disk fails every write of every device that retries.
    func logStoreFailure(_ message: Logger.Message, _ metadata: @autoclosure () -> Logger.Metadata) {
        logRateLimited(.error, key: message.description, message, metadata())
    }

    private func logRateLimited(_ level: Logger.Level, key: String, _ message: Logger.Message,
                                _ metadata: @autoclosure () -> Logger.Metadata) {
        guard let suppressed = logThrottle.admit(key: key, nowMs: loop.cachedNowMs) else { return }
        var metadata = metadata()
        if suppressed > 0 { metadata["lifesignal.suppressed"] = "\(suppressed)" }
        logger.log(level: level, message, metadata: metadata)
    }
}
