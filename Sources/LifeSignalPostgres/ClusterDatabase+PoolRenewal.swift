import Metrics
import PostgresNIO
import Synchronization

/// A pool (postgres-nio's `PostgresClient`) and the task that runs it.
final class RunningPool: Sendable {
    let client: PostgresClient
    let running: Task<Void, Never>
    /// Work abandoned on it at its deadline.
    let abandoned = Atomic<Int>(0)
    let startedAt = ContinuousClock.now

    init(_ client: PostgresClient) {
        self.client = client
        running = Task { await client.run() }
    }
}

extension ClusterDatabase {
    /// A statement on a session that PostgreSQL dropped under it can wait for good (postgres-nio
    /// fails neither it nor the connection's close), holding its connection: each one abandoned at
    /// its deadline shrinks the pool until none is left. So the first one a pool gets replaces it
    /// with a new pool, at most once per `workTimeout` (a frozen server makes every statement
    /// late); the old pool is stopped, its stuck statements left to end with it.
    func workAbandoned(on pool: RunningPool) {
        pool.abandoned.add(1, ordering: .relaxed)
        let replaced: RunningPool? = self.pool.withLock { current in
            guard current === pool, ContinuousClock.now - pool.startedAt >= workTimeout else { return nil }
            let old = current
            current = RunningPool(makeClient())
            return old
        }
        guard let replaced else { return }
        poolRenewals.increment()
        logger.warning("PostgreSQL work abandoned at its deadline: connection pool replaced",
                       metadata: ["lifesignal.postgres.abandoned": .stringConvertible(replaced.abandoned.load(ordering: .relaxed))])
        replaced.running.cancel()
    }
}
