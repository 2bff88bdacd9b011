import Logging
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
        let (client, timeout) = (self.client, leaseTimeout)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    guard race.settle(as: .leased) else { throw CancellationError() }
                    return try await body(connection)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                guard race.settle(as: .timedOut) else { return nil }
                throw PostgresStoreError.unreachable("no connection to \(self.url.host):\(self.url.port) within \(timeout)")
            }
            while let finished = try await group.next() {
                if let value = finished {
                    group.cancelAll()
                    return value
                }
            }
            throw CancellationError()
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
}
