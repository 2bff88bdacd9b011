import Foundation
import LifeSignalUV
import Logging

/// Runs a broker on the calling thread until SIGINT or SIGTERM: opens the store, listens,
/// serves, then shuts down gracefully (stop accepting, flush, close every handle, and commit
/// every queued write before returning).
public enum BrokerServer {
    public static func run(configuration: BrokerConfiguration, logger: Logger) throws {
        let loop = try EventLoop()
        let store = try SQLiteStore(directory: configuration.dataDirectory) { work in loop.execute(work) }
        let broker = Broker(configuration: configuration, store: store, loop: loop, logger: logger)
        let startError = Locked<Error?>(nil)
        loop.execute {
            do {
                try startServing(broker, loop: loop, configuration: configuration, logger: logger)
            } catch {
                startError.withLock { $0 = error }
                loop.shutdownGracefully(flushTimeoutMs: 0)
            }
        }
        defer { store.close() }
        try loop.run()
        if let error = startError.withLock({ $0 }) { throw error }
        logger.info("stopped")
    }

    private static func startServing(
        _ broker: Broker, loop: EventLoop, configuration: BrokerConfiguration, logger: Logger
    ) throws {
            let port = try broker.assumeIsolated { try $0.start() }
            logger.info("listening", metadata: [
                "lifesignal.host": "\(configuration.host)", "lifesignal.port": "\(port)",
                "lifesignal.data": "\(configuration.dataDirectory)",
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
