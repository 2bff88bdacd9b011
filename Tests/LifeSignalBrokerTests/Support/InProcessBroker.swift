import Foundation
@testable import LifeSignalBroker
import LifeSignalStoreSQLite
import LifeSignalUV
import Logging

/// The SQLite store, with loads of chosen users failing as a broken disk would: the real read
/// runs (so completions keep their order) and its answer is replaced by an error. Writes that
/// change a chosen user's document or move a push token to them fail too: nothing is written.
final class FaultyStore: BrokerStore {
    struct InjectedFailure: Error {}

    let base: SQLiteStore
    /// Users whose load fails, and how many loads failed so far.
    let failing = Locked<(users: Set<String>, failed: Int)>(([], 0))
    /// Users whose document cannot be written (with `onlyMarkingNonResponsive`, only a missed
    /// check-in's write of it), and how many writes failed so far.
    let failingWrites = Locked<(users: Set<String>, onlyMarkingNonResponsive: Bool, failed: Int)>(([], false, 0))
    /// How many more reads of the pending deadlines fail, and how many failed so far.
    let failingDeadlineLoads = Locked<(left: Int, failed: Int)>((0, 0))

    init(base: SQLiteStore) { self.base = base }

    func submit(_ write: StoreWrite, completion: @escaping @Sendable (Result<StoreWriteResult, Error>) -> Void) {
        if failsToWrite(write) {
            // An empty write in its place keeps the completions in order.
            return base.submit(StoreWrite(changes: [])) { _ in completion(.failure(InjectedFailure())) }
        }
        if case .pendingDeadlines = write.query, failingDeadlineLoads.withLock({ state in
            guard state.left > 0 else { return false }
            state.left -= 1
            state.failed += 1
            return true
        }) {
            return base.submit(StoreWrite(changes: [])) { _ in completion(.failure(InjectedFailure())) }
        }
        guard case .user(let id) = write.query else { return base.submit(write, completion: completion) }
        base.submit(write) { [failing] result in
            let fails = failing.withLock { state in
                guard state.users.contains(id) else { return false }
                state.failed += 1
                return true
            }
            completion(fails ? .failure(InjectedFailure()) : result)
        }
    }

    private func failsToWrite(_ write: StoreWrite) -> Bool {
        failingWrites.withLock { state in
            let fails = write.changes.contains { change in
                switch change {
                case .updateUser(let user):
                    state.users.contains(user.id) && (user.isNonResponsive || !state.onlyMarkingNonResponsive)
                case .movePushToken(_, let owner): state.users.contains(owner.userID)
                default: false
                }
            }
            if fails { state.failed += 1 }
            return fails
        }
    }

    func close() { base.close() }
}

extension Broker {
    func hasSession(for userID: String) -> Bool { users[userID] != nil }
}

/// A broker in this process, on its own loop thread and a temporary directory, so that a test
/// can reach its store. Everything else is the real thing: clients connect over TCP.
final class InProcessBroker: Sendable {
    let loop: EventLoop
    let store: FaultyStore
    let broker: Broker
    let port: Int
    /// Where its store lives; another broker started on it later finds the same data.
    let directory: String
    /// A directory this broker made is deleted with it; one it was given is left to its owner.
    private let ownsDirectory: Bool
    private let stopped = Locked(false)
    /// Set once the loop has ended and the store is closed.
    private let finished = Locked(false)

    /// `logger`, when given, takes the broker's log (else only critical lines, to nowhere).
    /// `prepare` runs on the store before the broker starts on it.
    init(directory: String? = nil, logger: Logger? = nil,
         configure: (inout BrokerConfiguration) -> Void = { _ in }, prepare: (FaultyStore) -> Void = { _ in }) throws {
        ownsDirectory = directory == nil
        let directory = directory ?? Self.newDirectory()
        self.directory = directory
        var configuration = BrokerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory
        configure(&configuration)
        let loop = try EventLoop()
        let store = FaultyStore(base: try SQLiteStore(directory: directory) { work in loop.execute(work) })
        prepare(store)
        let logger = logger ?? {
            var logger = Logger(label: "test-broker")
            logger.logLevel = .critical
            return logger
        }()
        let broker = Broker(configuration: configuration, store: store, loop: loop, logger: logger)
        self.loop = loop
        self.store = store
        self.broker = broker
        let finished = self.finished
        let started = Locked<Result<Int, any Error>?>(nil)
        Thread.detachNewThread {
            loop.execute {
                started.withLock { $0 = Result { try broker.onLoop { try $0.start() } } }
            }
            try? loop.run()
            store.close()
            finished.withLock { $0 = true }
        }
        while started.withLock({ $0 }) == nil { Thread.sleep(forTimeInterval: 0.005) }
        port = try started.withLock { $0! }.get()
    }

    func stop() {
        guard !stopped.withLock({ let was = $0; $0 = true; return was }) else { return }
        loop.shutdownGracefully(flushTimeoutMs: 0)
        // Bounded, so a broker that does not stop fails its test rather than hanging the suite.
        let deadline = ContinuousClock.now + .seconds(10)
        while !finished.withLock({ $0 }) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
    }

    /// Whether the user's session is in the registry (loaded, or being loaded).
    func isLoaded(_ userID: String) async throws -> Bool {
        try await broker.onLoopAsync { $0.hasSession(for: userID) }
    }

    static func newDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("broker-\(UUID().uuidString)").path
    }

    deinit {
        stop()
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }
}
