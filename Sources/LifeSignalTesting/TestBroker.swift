import Dispatch
import Foundation
import LifeSignalBroker
import LifeSignalStoreSQLite
import LifeSignalUV
import Logging

/// A real broker in this process, for tests: its own loop thread, the embedded SQLite store in a
/// temporary directory, a free port on 127.0.0.1. Clients connect to it over TCP as they would to
/// `lsbroker serve`; nothing is faked.
///
/// ```swift
/// let broker = try TestBroker()
/// defer { broker.stop() }
/// let client = LifeSignalClient(configuration: ClientConfiguration(host: broker.host, port: broker.port, …))
/// ```
public final class TestBroker: Sendable {
    public let host = "127.0.0.1"
    public let port: Int
    /// Where its store lives; a broker started later on the same directory finds the same data.
    public let directory: String
    package let loop: EventLoop
    package let broker: Broker
    package let store: BrokerStore
    /// A directory this broker made is deleted with it; one it was given is left to its owner.
    private let ownsDirectory: Bool
    private let stopped = Locked(false)
    /// Signalled once the loop has ended and the store is closed.
    private let finished = DispatchSemaphore(value: 0)

    /// Starts a broker with the default configuration changed by `configure`, on a free port unless
    /// `configure` names one (a test that restarts a broker where its clients reconnect).
    /// `directory`, when given, is kept after `stop()`.
    /// `logger` takes the broker's log; by default only critical lines, to nowhere.
    public convenience init(directory: String? = nil, logger: Logger? = nil,
                            configure: (inout BrokerConfiguration) -> Void = { _ in }) throws {
        try self.init(directory: directory, logger: logger, configure: configure, store: { $0 })
    }

    /// As above, with the SQLite store wrapped by `store` (a test that injects store failures).
    package init(directory: String?, logger: Logger?, configure: (inout BrokerConfiguration) -> Void,
                 store wrap: (SQLiteStore) throws -> BrokerStore) throws {
        ownsDirectory = directory == nil
        let directory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("lifesignal-test-broker-\(UUID().uuidString)").path
        self.directory = directory
        var configuration = BrokerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory
        // The hello timeout guards a served broker against connections that never say hello; in a
        // test process, where many suites share the cores, it only cut clients whose hello was
        // slow to run (10 s, seen in CI). A test of the timeout sets its own.
        configuration.helloTimeoutMs = Self.helloTimeoutMs
        configure(&configuration)
        let loop = try EventLoop()
        let store = try wrap(try SQLiteStore(directory: directory) { work in loop.execute(work) })
        let broker = Broker(configuration: configuration, store: store, loop: loop,
                            logger: logger ?? Self.quietLogger)
        (self.loop, self.store, self.broker) = (loop, store, broker)
        let finished = self.finished
        let started = Locked<Result<Int, any Error>?>(nil)
        let startedSignal = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            loop.execute {
                started.withLock { $0 = Result { try broker.onLoop { try $0.start() } } }
                startedSignal.signal()
            }
            try? loop.run()
            // A loop that ended before it ran the start still answers the waiting init.
            started.withLock { if $0 == nil { $0 = .failure(LoopStopped()) } }
            startedSignal.signal()
            store.close()
            finished.signal()
        }
        startedSignal.wait()
        port = try started.withLock { $0! }.get()
    }

    /// Stops the broker and waits (at most 10 s) until its loop has ended and its store is closed.
    public func stop() {
        guard !stopped.withLock({ let was = $0; $0 = true; return was }) else { return }
        loop.shutdownGracefully(flushTimeoutMs: 0)
        // Bounded, so a broker that does not stop fails its test rather than hanging the suite.
        _ = finished.wait(timeout: .now() + .seconds(10))
    }

    /// Long enough that no hello is cut by a busy machine.
    public static let helloTimeoutMs: Int64 = 120_000

    private static let quietLogger: Logger = {
        var logger = Logger(label: "lifesignal-test-broker")
        logger.logLevel = .critical
        return logger
    }()

    deinit {
        stop()
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }
}
