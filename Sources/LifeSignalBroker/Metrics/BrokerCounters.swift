import CoreMetrics
import LifeSignalEngine

/// The broker's counters that are not per request. Made once, when the broker is: with no metrics
/// system bootstrapped (in-process tests, `--metrics-port` not given) they are swift-metrics'
/// no-op handles.
struct BrokerCounters: Sendable {
    let connectionsAccepted: CoreMetrics.Counter
    let deadlinesFired: CoreMetrics.Counter
    let eventsWritten: CoreMetrics.Counter
    let notificationsWritten: CoreMetrics.Counter
    /// Every refusal the broker logs (throttled): one series per kind, the log's kinds.
    private let refusals: [LogThrottle.Kind: CoreMetrics.Counter]
    /// Connections the broker ended on its own, by reason.
    private let cuts: [ConnectionCut: CoreMetrics.Counter]

    init(factory: any MetricsFactory = MetricsSystem.factory) {
        connectionsAccepted = Counter(label: MetricName.connectionsAccepted, factory: factory)
        deadlinesFired = Counter(label: MetricName.deadlinesFired, factory: factory)
        eventsWritten = Counter(label: MetricName.eventsWritten, factory: factory)
        notificationsWritten = Counter(label: MetricName.notificationsWritten, factory: factory)
        refusals = Dictionary(uniqueKeysWithValues: LogThrottle.Kind.allCases.map { kind in
            (kind, Counter(label: MetricName.refusals, dimensions: [("reason", kind.metricLabel)], factory: factory))
        })
        cuts = Dictionary(uniqueKeysWithValues: ConnectionCut.allCases.map { cut in
            (cut, Counter(label: MetricName.connectionsCut, dimensions: [("reason", cut.metricLabel)], factory: factory))
        })
    }

    func refused(_ kind: LogThrottle.Kind) { refusals[kind]?.increment() }

    func cut(_ reason: ConnectionCut) { cuts[reason]?.increment() }

    /// Counts what a committed write of the embedded store stored.
    func written(_ changes: [StoreChange]) {
        var events = 0
        var notifications = 0
        for change in changes {
            switch change {
            case .appendEvent: events += 1
            case .insertNotification: notifications += 1
            default: break
            }
        }
        written(events: events, notifications: notifications)
    }

    func written(events: Int, notifications: Int) {
        if events > 0 { eventsWritten.increment(by: events) }
        if notifications > 0 { notificationsWritten.increment(by: notifications) }
    }
}
