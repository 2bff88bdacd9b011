import Foundation
import LifeSignalPostgres
import LifeSignalPush
import LifeSignalStoreSQLite
import LifeSignalUV
import Logging
import Prometheus

/// Runs a broker on the calling thread until SIGINT or SIGTERM: opens the store (the embedded
/// SQLite one, or PostgreSQL in a cluster), listens, serves, then shuts down gracefully (stop
/// accepting, flush, close every handle, and commit every queued write before returning).
public enum BrokerServer {
    /// With `configuration.metricsPort`, `metrics` is the registry of the metrics system the caller
    /// bootstrapped (`MetricsExport.bootstrap()`), which the operations endpoint writes out.
    public static func run(configuration: BrokerConfiguration, logger: Logger,
                           metrics: PrometheusCollectorRegistry? = nil) throws {
        let loop = try EventLoop()
        // Bound before the store is opened: a start that cannot listen creates nothing.
        nonisolated(unsafe) let listener = try bind(configuration, loop: loop)
        let backend: Backend
        do {
            backend = try Backend.open(configuration, loop: loop, logger: logger)
        } catch {
            throw closing(loop, error)
        }
        defer { backend.close() }
        let pushGateway = configuration.fcm.map { FCMPushGateway(settings: $0, logger: logger) }
        let broker = backend.broker(configuration: configuration, loop: loop, logger: logger, pushGateway: pushGateway)
        // After the loop has stopped, before the store closes: sends in flight end, the HTTP client shuts down.
        defer { waitFor { await broker.pushOutbox.shutdown() } }
        let operations = try configuration.metricsPort.map { port in
            do {
                return try OperationsServer.start(host: configuration.metricsHost, port: port, broker: broker,
                                                  registry: metrics ?? PrometheusCollectorRegistry(), logger: logger)
            } catch {
                throw closing(loop, StartFailure("cannot serve metrics on \(configuration.metricsHost):\(port) (--metrics-port): \(error)"))
            }
        }
        defer { operations?.stop() }
        if let operations {
            logger.info("serving metrics and health", metadata: [
                "lifesignal.metrics.host": "\(configuration.metricsHost)", "lifesignal.metrics.port": .stringConvertible(operations.port),
            ])
        }
        let startError = Locked<Error?>(nil)
        let stopSignal = Locked<Int32?>(nil)
        loop.execute {
            do {
                try startServing(broker, listener: listener, loop: loop, configuration: configuration, logger: logger) { signal in
                    stopSignal.withLock { $0 = signal }
                }
            } catch {
                startError.withLock { $0 = error }
                loop.shutdownGracefully(flushTimeoutMs: 0)
            }
        }
        try loop.run()
        if let error = startError.withLock({ $0 }) { throw error }
        backend.leave(broker)
        logger.info("stopped", metadata: [
            "lifesignal.reason": "\(stopSignal.withLock { $0 }.map(SignalName.of) ?? "the loop ended")",
        ])
    }

    /// A start that fails before serving still runs the loop once to close what it opened (the
    /// bound listener, the broker's timers), so nothing outlives the failed start.
    private static func closing(_ loop: EventLoop, _ error: any Error) -> any Error {
        loop.shutdownGracefully(flushTimeoutMs: 0)
        try? loop.run()
        return error
    }

    /// The broker's port, bound (not yet listening).
    private static func bind(_ configuration: BrokerConfiguration, loop: EventLoop) throws -> TCPListener {
        do {
            return try TCPListener(loop: loop, host: configuration.host, port: configuration.port)
        } catch {
            throw closing(loop, StartFailure("cannot listen on \(configuration.host):\(configuration.port) (--port, --host): \(error)"))
        }
    }

    /// Where the broker keeps its data.
    private enum Backend {
        case embedded(SQLiteStore)
        case cluster(ClusterDatabase, ClusterExecutor)

        static func open(_ configuration: BrokerConfiguration, loop: EventLoop, logger: Logger) throws -> Backend {
            guard let text = configuration.postgresURL else {
                let store: SQLiteStore
                do {
                    store = try SQLiteStore(
                        directory: configuration.dataDirectory, cacheMiB: configuration.storeCacheMiB
                    ) { work in loop.execute(work) }
                } catch let error as StoreFileError {
                    throw StartFailure("cannot use the data directory (--data-dir): \(error)")
                }
                logger.info("store opened", metadata: [
                    "lifesignal.store": "sqlite", "lifesignal.path": "\(SQLiteStore.path(in: configuration.dataDirectory))",
                    "lifesignal.schema": .stringConvertible(store.appliedMigrations.count),
                    "lifesignal.schema.name": "\(store.appliedMigrations.last ?? "none")",
                    "lifesignal.cache_mib": .stringConvertible(configuration.storeCacheMiB),
                ])
                return .embedded(store)
            }
            let url = try PostgresURL(parsing: text).withPassword(fromFile: configuration.postgresPasswordFile)
            let database = try waitFor {
                try await ClusterDatabase.open(url, logger: logger, workTimeout: .seconds(configuration.postgresTimeout))
            }
            do {
                let applied = try waitFor { try await database.migrate() }
                // Host, database and user, never the password.
                logger.info("store opened", metadata: [
                    "lifesignal.store": "postgresql", "lifesignal.postgres.host": "\(url.host):\(url.port)",
                    "lifesignal.postgres.database": "\(url.database)", "lifesignal.postgres.user": "\(url.username)",
                    "lifesignal.schema": .stringConvertible(SchemaMigration.all.map(\.version).max() ?? 0),
                    "lifesignal.migrations.applied": .stringConvertible(applied.count),
                ])
            } catch {
                waitFor { await database.close() }
                throw error
            }
            let executor = ClusterExecutor(database: database, logger: logger,
                                           eventRetention: configuration.eventRetention,
                                           notificationHistory: configuration.notificationHistory)
            return .cluster(database, executor)
        }

        func broker(configuration: BrokerConfiguration, loop: EventLoop, logger: Logger,
                    pushGateway: (any PushGateway)?) -> Broker {
            switch self {
            case .embedded(let store):
                Broker(configuration: configuration, store: store, loop: loop, logger: logger, pushGateway: pushGateway)
            case .cluster(_, let executor):
                Broker(configuration: configuration, cluster: executor, loop: loop, logger: logger, pushGateway: pushGateway)
            }
        }

        /// A cluster broker that stops cleanly says its devices are gone at once, rather than
        /// after its heartbeat expires.
        func leave(_ broker: Broker) {
            guard case .cluster(_, let executor) = self, let brokerID = broker.cluster?.brokerID, !brokerID.isEmpty
            else { return }
            waitFor { try? await executor.clearPresence(brokerID: brokerID) }
        }

        func close() {
            switch self {
            case .embedded(let store): store.close()
            case .cluster(let database, _): waitFor { await database.close() }
            }
        }
    }

    private static func startServing(
        _ broker: Broker, listener: TCPListener, loop: EventLoop, configuration: BrokerConfiguration, logger: Logger,
        stopRequested: @escaping @Sendable (Int32) -> Void
    ) throws {
            nonisolated(unsafe) let listener = listener
            let port = try broker.onLoop { try $0.start(listener: listener) }
            logger.info("listening", metadata: [
                "lifesignal.host": "\(configuration.host)", "lifesignal.port": .stringConvertible(port),
                "lifesignal.data": "\(configuration.postgresURL.map { _ in "postgresql" } ?? configuration.dataDirectory)",
                "lifesignal.broker": "\(broker.onLoop { $0.brokerID })",
                "lifesignal.connections.max": .stringConvertible(broker.maxConnections),
                "lifesignal.files.max": .stringConvertible(broker.openFileLimit),
            ])
            if broker.maxConnections > OpenFileLimit.defaultMaxConnections(limit: broker.openFileLimit) {
                // Accepts beyond the descriptors fail (EMFILE) instead of being refused cleanly.
                logger.warning("max-connections leaves fewer descriptors than the reserve", metadata: [
                    "lifesignal.connections.max": .stringConvertible(broker.maxConnections),
                    "lifesignal.files.max": .stringConvertible(broker.openFileLimit),
                    "lifesignal.files.reserved": .stringConvertible(OpenFileLimit.reserved),
                ])
            }
            var watchers: [SignalWatcher] = []
            for signal in [SIGINT, SIGTERM] {
                watchers.append(try SignalWatcher(loop: loop, signal: signal) {
                    stopRequested(signal)
                    logger.info("shutting down", metadata: ["lifesignal.signal": "\(SignalName.of(signal))"])
                    broker.onLoop { $0.stopAccepting() }
                    loop.shutdownGracefully()
                })
            }
            loop.addShutdownHook { _ = watchers }
    }
}

/// Why the broker could not start, naming the setting to change.
struct StartFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
