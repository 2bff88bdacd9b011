import Metrics

/// How many pushes each gateway handled and how many wait (swift-metrics; whichever backend the
/// process bootstrapped exports them). Every gateway counts, so `lsbroker stats` shows pushes
/// whether they are only recorded or sent through FCM. Made once per gateway: a handle per
/// message would look the metric up every time.
package struct PushMetrics: Sendable {
    /// The names this module exports under (the broker's `MetricName` lists them with the rest).
    package enum Name {
        package static let pushes = "lifesignal_pushes_total"
        package static let backlog = "lifesignal_push_backlog"
        /// One FCM `messages:send` round trip (the FCM gateway only).
        package static let sendDuration = "lifesignal_push_send_duration_seconds"
    }

    /// How a message ended, plus `retried` for each try after the first, `dropped` for what a
    /// queue had no room for, `coalesced` for a ping replaced by a newer one before it was sent,
    /// and `throttled` for a ping past its sender's budget (all three stay in the store only).
    package enum Result: String, CaseIterable {
        /// Kept in the store only (the default gateway).
        case recorded
        case sent, retried, unregistered, invalid, failed
        case authFailed = "auth_failed"
        case dropped, coalesced, throttled
    }

    private let results: [String: Counter]
    /// Messages accepted and not yet finished (waiting or being sent).
    package let backlog: Gauge
    /// One HTTP round trip to `messages:send`, whatever it answered.
    package let sendDuration: Metrics.Timer

    /// `factory`: the process's bootstrapped backend, or a test's own (no global bootstrap needed).
    package init(factory: any MetricsFactory = MetricsSystem.factory) {
        var results: [String: Counter] = [:]
        for result in Result.allCases {
            results[result.rawValue] = Counter(label: Name.pushes, dimensions: [("result", result.rawValue)],
                                               factory: factory)
        }
        self.results = results
        backlog = Gauge(label: Name.backlog, factory: factory)
        backlog.record(0)  // exported from the start, not only once something waited
        sendDuration = Metrics.Timer(label: Name.sendDuration, preferredDisplayUnit: .seconds,
                                     factory: factory)
    }

    package func count(_ result: Result, _ amount: Int = 1) {
        guard amount > 0 else { return }
        results[result.rawValue]?.increment(by: amount)
    }
}
