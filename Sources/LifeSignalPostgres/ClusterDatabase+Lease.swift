import Logging
import Metrics
import PostgresNIO
import Synchronization

extension ClusterDatabase {
    /// Runs `body` on a connection of the pool, waiting at most `leaseTimeout` for one. While
    /// PostgreSQL is gone the pool keeps trying to connect and a plain lease waits for as long;
    /// this one gives up instead, before `body` has run, so a caller may say "nothing was done".
    /// Once `body` has a connection it runs to its end.
    /// - Throws: `PostgresStoreError.unreachable` when no connection came in time.
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        let race = LeaseRace()
        let askedAt = ContinuousClock.now
        let lease = Task { [self] in
            try await client.withConnection { connection in
                guard race.settle(as: .leased) else { throw CancellationError() }
                leaseWait.record(duration: ContinuousClock.now - askedAt)
                leased.add(1, ordering: .relaxed)
                defer { leased.subtract(1, ordering: .relaxed) }
                return try await body(connection)
            }
        }
        let token = leaseWatchdog.watch(until: .now + leaseTimeout) {
            if race.settle(as: .timedOut) { lease.cancel() }
        }
        defer { leaseWatchdog.forget(token) }
        do {
            return try await withTaskCancellationHandler { try await lease.value } onCancel: { lease.cancel() }
        } catch where race.outcome == .timedOut {
            leaseTimeouts.increment()
            throw PostgresStoreError.unreachable("no connection to \(url.host):\(url.port) within \(leaseTimeout)")
        }
    }

    /// `withConnection` inside one transaction: committed when `body` returns, rolled back when
    /// it throws.
    public func withTransaction<T: Sendable>(logger: Logger,
                                             _ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        try await withConnection { connection in
            try await connection.withTransaction(logger: logger) { try await body($0) }
        }
    }
}

/// Which came first for one lease: the connection or the timeout. Whichever settles first wins.
final class LeaseRace: Sendable {
    enum Outcome: Int { case leased = 1, timedOut = 2 }
    private let state = Atomic<Int>(0)

    func settle(as outcome: Outcome) -> Bool {
        state.compareExchange(expected: 0, desired: outcome.rawValue, ordering: .acquiringAndReleasing).exchanged
    }

    var outcome: Outcome? { Outcome(rawValue: state.load(ordering: .acquiring)) }
}
