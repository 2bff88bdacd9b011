import Metrics

/// The sender's metrics (swift-metrics; whichever backend the process bootstrapped exports them).
/// Made once per gateway: a handle per message would look the metric up every time.
struct FCMMetrics: Sendable {
    /// How a message ended, plus `retried` for each try after the first and `dropped` for what
    /// the backlog had no room for.
    enum Result: String, CaseIterable {
        case sent, retried, unregistered, invalid, failed
        case authFailed = "auth_failed"
        case dropped
    }

    private let results: [String: Counter]
    /// Messages accepted and not yet finished (waiting or being sent).
    let backlog: Gauge
    /// One HTTP round trip to `messages:send`, whatever it answered.
    let sendDuration: Metrics.Timer

    /// `factory`: the process's bootstrapped backend, or a test's own (no global bootstrap needed).
    init(factory: any MetricsFactory = MetricsSystem.factory) {
        var results: [String: Counter] = [:]
        for result in Result.allCases {
            results[result.rawValue] = Counter(label: "lifesignal_pushes_total",
                                               dimensions: [("result", result.rawValue)], factory: factory)
        }
        self.results = results
        backlog = Gauge(label: "lifesignal_push_backlog", factory: factory)
        sendDuration = Metrics.Timer(label: "lifesignal_push_send_duration_seconds", preferredDisplayUnit: .seconds,
                                     factory: factory)
    }

    func count(_ result: Result) { results[result.rawValue]?.increment() }
}
