import LifeSignalPostgres
import LifeSignalPush
import LifeSignalStoreSQLite

/// Every metric the broker exports (docs/OPERATIONS.md, "Metrics"): one list, so that the code,
/// `lsbroker stats`, the docs and deploy/grafana name them alike.
public enum MetricName {
    // Requests (ClientConnection: every answer, in the order the requests came).
    public static let requests = "lifesignal_requests_total"
    public static let requestDuration = "lifesignal_request_duration_seconds"

    // Sampled from the broker's own state when scraped (BrokerGauges).
    public static let connections = "lifesignal_connections"
    public static let usersLoaded = "lifesignal_users_loaded"
    public static let devicesOnline = "lifesignal_devices_online"
    public static let storeBacklog = "lifesignal_store_backlog"
    public static let deadlinesPending = "lifesignal_deadlines_pending"
    public static let storeRetriesPending = "lifesignal_store_retries_pending"

    // The store's writes.
    public static let eventsWritten = "lifesignal_events_written_total"
    public static let notificationsWritten = "lifesignal_notifications_written_total"
    public static let commitBatchSize = CommitMetrics.batchSizeLabel
    public static let commitDuration = CommitMetrics.durationLabel
    public static let commitFailures = CommitMetrics.failuresLabel

    // Connections and limits.
    public static let connectionsAccepted = "lifesignal_connections_accepted_total"
    /// Refusals by reason: connection limits, rate limits, a full store backlog (LogThrottle.Kind).
    public static let refusals = "lifesignal_refusals_total"
    /// Connections the broker ended on its own, by reason (ConnectionCut).
    public static let connectionsCut = "lifesignal_connections_cut_total"
    public static let deadlinesFired = "lifesignal_deadlines_fired_total"

    // Pushes (the LifeSignalPush module).
    public static let pushes = PushMetrics.Name.pushes
    public static let pushBacklog = PushMetrics.Name.backlog
    /// One FCM `messages:send` round trip (the FCM gateway only).
    public static let pushSendDuration = PushMetrics.Name.sendDuration

    // A cluster's PostgreSQL (ClusterDatabase, ClusterNode).
    public static let postgresLeasesInUse = "lifesignal_postgres_leases_in_use"
    public static let postgresPoolSize = "lifesignal_postgres_pool_size"
    /// Made in LifeSignalPostgres (ClusterDatabase), which does not see this list.
    public static let postgresLeaseWait = "lifesignal_postgres_lease_wait_seconds"
    public static let postgresLeaseTimeouts = "lifesignal_postgres_lease_timeouts_total"
    /// Work abandoned at --postgres-timeout, pools replaced after it, and connections lent after
    /// their session had ended (ClusterDatabase).
    public static let postgresWorkTimeouts = "lifesignal_postgres_work_timeouts_total"
    public static let postgresPoolRenewals = "lifesignal_postgres_pool_renewals_total"
    public static let postgresClosedConnectionsLent = "lifesignal_postgres_closed_connections_lent_total"
    /// Hints from the other brokers (ARCHITECTURE.md, "The cluster").
    public static let notifiesReceived = "lifesignal_postgres_notifies_received_total"
}

extension MetricName {
    /// Every name above with its `# HELP` line (MetricHelp); what deploy/'s dashboard and rules may
    /// use (MonitoringFilesTests).
    public static let help: [String: String] = [
        requests: "Answers by op and result (ok or a PROTOCOL error code).",
        requestDuration: "From the read that brought a request to the write of its answer.",
        connections: "Open connections by phase.",
        usersLoaded: "Users in memory.",
        devicesOnline: "Devices online on this broker.",
        storeBacklog: "Store submissions not yet completed; at --max-pending-writes requests are answered overloaded.",
        deadlinesPending: "Check-in deadlines scheduled on this broker.",
        storeRetriesPending: "Deadlines and loads waiting for the store to come back.",
        eventsWritten: "Events committed.",
        notificationsWritten: "Notifications committed.",
        commitBatchSize: "Writes per group-commit transaction (embedded) or requests per batch (cluster).",
        commitDuration: "One group commit, fsync included.",
        commitFailures: "Transactions that failed as a whole.",
        connectionsAccepted: "Connections accepted.",
        refusals: "Connections and requests refused, by reason.",
        connectionsCut: "Connections the broker ended on its own, by reason.",
        deadlinesFired: "Missed check-ins marked by this broker.",
        pushes: "Pushes handed to the gateway, by outcome.",
        pushBacklog: "Pushes waiting to be sent.",
        pushSendDuration: "One FCM messages:send round trip.",
        postgresLeasesInUse: "Pooled PostgreSQL connections lent out now.",
        postgresPoolSize: "Pooled PostgreSQL connections at most.",
        postgresLeaseWait: "How long a statement waited for a PostgreSQL connection.",
        postgresLeaseTimeouts: "Statements given up unexecuted: no PostgreSQL connection in time.",
        postgresWorkTimeouts: "Transactions abandoned at --postgres-timeout, their connection closed.",
        postgresPoolRenewals: "PostgreSQL connection pools replaced after abandoned work.",
        postgresClosedConnectionsLent: "PostgreSQL connections lent after their session had ended.",
        notifiesReceived: "Hints received from the other brokers of the cluster.",
    ]

    public static var all: [String] { help.keys.sorted() }
}
