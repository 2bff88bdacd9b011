import Foundation
import Metrics
import Logging
import PostgresNIO
import LifeSignalUV
import Synchronization

/// The cluster's PostgreSQL: a pool of connections (postgres-nio's `PostgresClient`) that runs
/// for as long as this value is open. Open fails fast and clearly when the server is not there,
/// so that a broker started against the wrong URL exits instead of waiting.
public final class ClusterDatabase: Sendable {
    public let url: PostgresURL
    /// The pool now: a renewed one replaces it (`ClusterDatabase+PoolRenewal`).
    public var client: PostgresClient { pool.withLock { $0.client } }
    let pool: Locked<RunningPool>
    let makeClient: @Sendable () -> PostgresClient
    let logger: Logger
    /// How long a request waits for a connection before it is given up unexecuted (`withConnection`).
    public let leaseTimeout: Duration
    /// How long a connection, once leased, may take for its work (a transaction: every statement
    /// and the commit) before it is closed and the work given up (`withConnection`).
    public let workTimeout: Duration
    let leaseWatchdog = LeaseWatchdog()
    /// Connections of the pool lent out now (`/metrics`: lifesignal_postgres_leases_in_use).
    public var leasesInUse: Int { leased.load(ordering: .relaxed) }
    let leased = Atomic<Int>(0)
    /// How long a lease waited for its connection, and the leases given up (`withConnection`).
    let leaseWait = Metrics.Timer(label: "lifesignal_postgres_lease_wait_seconds")
    let leaseTimeouts = Counter(label: "lifesignal_postgres_lease_timeouts_total")
    /// Work abandoned at `workTimeout`, its connection closed (`withConnection`).
    let workTimeouts = Counter(label: "lifesignal_postgres_work_timeouts_total")
    /// Connections the pool lent whose session had already ended (given back, another taken).
    let closedConnectionsLent = Counter(label: "lifesignal_postgres_closed_connections_lent_total")
    /// Pools replaced because work on them was abandoned (`workAbandoned`).
    let poolRenewals = Counter(label: "lifesignal_postgres_pool_renewals_total")

    private init(url: PostgresURL, makeClient: @escaping @Sendable () -> PostgresClient, logger: Logger,
                 leaseTimeout: Duration, workTimeout: Duration) {
        self.workTimeout = workTimeout
        self.url = url
        self.leaseTimeout = leaseTimeout
        self.makeClient = makeClient
        pool = Locked(RunningPool(makeClient()))
        self.logger = logger
    }

    /// Connects and checks that the server answers within `timeout`, over TLS as `url.sslMode`
    /// says. A password not in `url` is looked up in `environment` as libpq does
    /// (`PostgresURL.resolvingPassword`).
    /// - Throws: `PostgresStoreError`: `authenticationFailed` or `tlsFailed` as soon as the server
    ///   answers so, `unreachable` after `timeout`; each names the server, never its password.
    public static func open(_ url: PostgresURL, logger: Logger, timeout: Duration = .seconds(10),
                            leaseTimeout: Duration = .seconds(3), workTimeout: Duration = .seconds(5),
                            environment: [String: String] = ProcessInfo.processInfo.environment)
        async throws -> ClusterDatabase
    {
        let url = try url.resolvingPassword(environment: environment)
        try await checkServer(url, timeout: timeout, logger: logger)
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password, database: url.database,
            tls: try url.clientTLS())
        // The pool's statements, and the connection the hint listener (ClusterNode.startListening)
        // takes from it for as long as the broker runs: `pool` plus one, as OPERATIONS says.
        configuration.options.maximumConnections = url.poolSize + 1
        configuration.options.connectTimeout = timeout
        // The pool logs each failed connect attempt at info; the broker says once that PostgreSQL
        // is gone, and requests say so themselves.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .error)
        let database = ClusterDatabase(
            url: url, makeClient: { [configuration, poolLogger] in
                PostgresClient(configuration: configuration, backgroundLogger: poolLogger)
            }, logger: logger, leaseTimeout: leaseTimeout, workTimeout: workTimeout)
        do {
            try await withDeadline(timeout) { try await database.client.execute("SELECT 1", logger: logger) }
            return database
        } catch {
            await database.close()
            throw PostgresStoreError.unreachable("\(url): \(Self.reason(error))")
        }
    }

    /// Stops the pool; queries still running fail.
    public func close() async {
        let running = pool.withLock { $0.running }
        running.cancel()
        await running.value
    }

    /// The server's own words where it gave some, without the query that failed.
    public static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return error.underlying.map { "\(error.code): \($0)" } ?? "\(error.code)"
        }
        return "\(error)"
    }
}

extension PostgresConnection {
    /// Runs a statement whose rows, if any, nobody needs.
    func execute(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}

extension PostgresClient {
    /// Runs a statement whose rows, if any, nobody needs.
    func execute(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}
