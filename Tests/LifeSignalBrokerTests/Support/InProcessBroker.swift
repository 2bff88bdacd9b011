import Foundation
@testable import LifeSignalBroker
import LifeSignalStoreSQLite
import LifeSignalTesting
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
                case .movePushToken(_, let owner, _): state.users.contains(owner.userID)
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

/// A `TestBroker` whose store can be made to fail (`FaultyStore`), with what the tests reach inside.
final class InProcessBroker: Sendable {
    let testBroker: TestBroker
    let store: FaultyStore
    var loop: EventLoop { testBroker.loop }
    var broker: Broker { testBroker.broker }
    var port: Int { testBroker.port }
    var directory: String { testBroker.directory }

    /// `logger`, when given, takes the broker's log (else only critical lines, to nowhere).
    /// `prepare` runs on the store before the broker starts on it.
    init(directory: String? = nil, logger: Logger? = nil,
         configure: (inout BrokerConfiguration) -> Void = { _ in }, prepare: (FaultyStore) -> Void = { _ in }) throws {
        var faulty: FaultyStore?
        testBroker = try TestBroker(directory: directory, logger: logger, configure: configure) { base in
            let store = FaultyStore(base: base)
            prepare(store)
            faulty = store
            return store
        }
        store = faulty!
    }

    func stop() { testBroker.stop() }

    /// Whether the user's session is in the registry (loaded, or being loaded).
    func isLoaded(_ userID: String) async throws -> Bool {
        try await broker.onLoopAsync { $0.hasSession(for: userID) }
    }

    static func newDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("broker-\(UUID().uuidString)").path
    }
}
