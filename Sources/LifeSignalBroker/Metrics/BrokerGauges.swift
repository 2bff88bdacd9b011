import CoreMetrics

/// The gauges a scrape sets from a `BrokerSnapshot` just before the registry is written out.
struct BrokerGauges: Sendable {
    private let connections: [(phase: String, gauge: Gauge)]
    private let usersLoaded: Gauge
    private let devicesOnline: Gauge
    private let storeBacklog: Gauge
    private let deadlinesPending: Gauge
    private let storeRetriesPending: Gauge
    /// A cluster's pool; nil on the embedded store, which then exports no PostgreSQL series.
    private let postgresLeasesInUse: Gauge?
    private let postgresPoolSize: Gauge?

    init(clustered: Bool, factory: any MetricsFactory = MetricsSystem.factory) {
        connections = ["awaiting_hello", "authenticating", "active", "closing"].map {
            ($0, Gauge(label: MetricName.connections, dimensions: [("phase", $0)], factory: factory))
        }
        usersLoaded = Gauge(label: MetricName.usersLoaded, factory: factory)
        devicesOnline = Gauge(label: MetricName.devicesOnline, factory: factory)
        storeBacklog = Gauge(label: MetricName.storeBacklog, factory: factory)
        deadlinesPending = Gauge(label: MetricName.deadlinesPending, factory: factory)
        storeRetriesPending = Gauge(label: MetricName.storeRetriesPending, factory: factory)
        postgresLeasesInUse = clustered ? Gauge(label: MetricName.postgresLeasesInUse, factory: factory) : nil
        postgresPoolSize = clustered ? Gauge(label: MetricName.postgresPoolSize, factory: factory) : nil
    }

    func record(_ snapshot: BrokerSnapshot) {
        let byPhase = [snapshot.connectionsAwaitingHello, snapshot.connectionsAuthenticating,
                       snapshot.connectionsActive, snapshot.connectionsClosing]
        for (entry, count) in zip(connections, byPhase) { entry.gauge.record(count) }
        usersLoaded.record(snapshot.usersLoaded)
        devicesOnline.record(snapshot.connectionsActive)
        storeBacklog.record(snapshot.storeBacklog)
        deadlinesPending.record(snapshot.deadlinesPending)
        storeRetriesPending.record(snapshot.storeRetriesPending)
        if let leases = snapshot.postgresLeasesInUse { postgresLeasesInUse?.record(leases) }
        if let size = snapshot.postgresPoolSize { postgresPoolSize?.record(size) }
    }
}
