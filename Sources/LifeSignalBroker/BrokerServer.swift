import Foundation
import LifeSignalPostgres
import LifeSignalUV
import Logging

/// Runs a broker on the calling thread until SIGINT or SIGTERM: opens the store (the embedded
/// SQLite one, or PostgreSQL in a cluster), listens, serves, then shuts down gracefully (stop
/// accepting, flush, close every handle, and commit every queued write before returning).
public enum BrokerServer {
    public static func run(configuration: BrokerConfiguration, logger: Logger) throws {
        let loop = try EventLoop()
        let backend = try Backend.open(configuration, loop: loop, logger: logger)
        defer { backend.close() }
        let pushGateway = configuration.fcm.map { FCMPushGateway(settings: $0, logger: logger) }
        let broker = backend.broker(configuration: configuration, loop: loop, logger: logger, pushGateway: pushGateway)
        // After the loop has stopped, before the store closes: sends in flight end, the HTTP client shuts down.
        defer { waitFor { await broker.pushOutbox.shutdown() } }
        let startError = Locked<Error?>(nil)
        loop.execute {
            do {
                try startServing(broker, loop: loop, configuration: configuration, logger: logger)
            } catch {
                startError.withLock { $0 = error }
                loop.shutdownGracefully(flushTimeoutMs: 0)
            }
        }
        try loop.run()
        if let error = startError.withLock({ $0 }) { throw error }
        backend.leave(broker)
        logger.info("stopped")
    }

    /// Where the broker keeps its data.
    private enum Backend {
        case embedded(SQLiteStore)
        case cluster(ClusterDatabase, ClusterExecutor)

        static func open(_ configuration: BrokerConfiguration, loop: EventLoop, logger: Logger) throws -> Backend {
            guard let text = configuration.postgresURL else {
                return .embedded(try SQLiteStore(directory: configuration.dataDirectory) { work in loop.execute(work) })
            }
            let url = try PostgresURL(parsing: text)
            let database = try waitFor { try await ClusterDatabase.open(url, logger: logger) }
            do {
                let applied = try waitFor { try await database.migrate() }
                logger.info("cluster store opened", metadata: [
                    "lifesignal.postgres": "\(url)", "lifesignal.migrations.applied": "\(applied)",
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
        _ broker: Broker, loop: EventLoop, configuration: BrokerConfiguration, logger: Logger
    ) throws {
            let port = try broker.assumeIsolated { try $0.start() }
            logger.info("listening", metadata: [
                "lifesignal.host": "\(configuration.host)", "lifesignal.port": "\(port)",
                "lifesignal.data": "\(configuration.postgresURL.map { _ in "postgresql" } ?? configuration.dataDirectory)",
                "lifesignal.broker": "\(broker.assumeIsolated { $0.brokerID })",
                "lifesignal.connections.max": "\(broker.maxConnections)",
                "lifesignal.files.max": "\(broker.openFileLimit)",
            ])
            if broker.maxConnections > OpenFileLimit.defaultMaxConnections(limit: broker.openFileLimit) {
                // Accepts beyond the descriptors fail (EMFILE) instead of being refused cleanly.
                logger.warning("max-connections leaves fewer descriptors than the reserve", metadata: [
                    "lifesignal.connections.max": "\(broker.maxConnections)",
                    "lifesignal.files.max": "\(broker.openFileLimit)",
                    "lifesignal.files.reserved": "\(OpenFileLimit.reserved)",
                ])
            }
            var watchers: [SignalWatcher] = []
            for signal in [SIGINT, SIGTERM] {
                watchers.append(try SignalWatcher(loop: loop, signal: signal) {
                    logger.info("shutting down", metadata: ["lifesignal.signal": "\(signal)"])
                    broker.assumeIsolated { $0.stopAccepting() }
                    loop.shutdownGracefully()
                })
            }
            loop.addShutdownHook { _ = watchers }
    }
}

/// Runs async work from a synchronous caller that may block (start-up and shutdown, not the loop).
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Locked<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            let value = try await work()
            result.withLock { $0 = .success(value) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

func waitFor<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    try! waitFor { () async throws -> T in await work() }
}
