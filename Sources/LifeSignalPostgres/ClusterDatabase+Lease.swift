import Logging
import Metrics
import PostgresNIO
import Synchronization

extension ClusterDatabase {
    /// Runs `body` on a connection of the pool, waiting at most `leaseTimeout` for one and then
    /// at most `workTimeout` for `body`. While PostgreSQL is gone the pool keeps trying to connect
    /// and a plain lease waits for as long; this one gives up instead, before `body` has run, so a
    /// caller may say "nothing was done". A `body` still running at its deadline (a frozen server,
    /// a session dropped mid-statement that never answers) is abandoned: its connection is closed,
    /// which fails whatever it waits for, and the pool opens a new one.
    /// `deadline`, when given, ends both waits no later than then: a request's answer is due then,
    /// however long it waited before.
    /// - Throws: `PostgresStoreError.unreachable` when no connection came in time;
    ///   `PostgresWorkTimeout` when `body` did not finish in time.
    public func withConnection<T: Sendable>(deadline: ContinuousClock.Instant? = nil,
                                            _ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        try await withConnection(phase: WorkPhase(), deadline: deadline, body)
    }

    /// `withConnection` inside one transaction: committed when `body` returns, rolled back when
    /// it throws.
    /// - Throws: besides `withConnection`'s, `PostgresCommitUnknown` when the connection was lost
    ///   while the commit was under way (the transaction may or may not have committed).
    public func withTransaction<T: Sendable>(logger: Logger, deadline: ContinuousClock.Instant? = nil,
                                             _ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        let phase = WorkPhase()
        return try await withConnection(phase: phase, deadline: deadline) { connection in
            try await connection.execute("BEGIN", logger: logger)
            let value: T
            do {
                value = try await body(connection)
            } catch {
                try? await connection.execute("ROLLBACK", logger: logger)
                throw error
            }
            phase.beginCommit()
            do {
                try await connection.execute("COMMIT", logger: logger)
            } catch let error as PSQLError where error.serverInfo != nil {
                throw error  // the server's own refusal: rolled back
            } catch {
                throw PostgresCommitUnknown(reason: Self.reason(error))
            }
            return value
        }
    }

    private func withConnection<T: Sendable>(phase: WorkPhase, deadline: ContinuousClock.Instant?,
                                             _ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        let latest = deadline ?? .now + leaseTimeout + workTimeout
        // The pool may lend a connection whose session the server already dropped, and a statement
        // on it would wait for good: such a lease is given back at once and another one taken.
        for _ in 0..<url.poolSize {
            do {
                return try await lease(phase: phase, until: latest, body)
            } catch is ClosedConnection where ContinuousClock.now < latest {
                closedConnectionsLent.increment()
            }
        }
        return try await lease(phase: phase, until: latest, body)
    }

    private func lease<T: Sendable>(phase: WorkPhase, until latest: ContinuousClock.Instant,
                                    _ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        let answer = LeaseAnswer<T>()
        let askedAt = ContinuousClock.now
        let (leaseTimeout, workTimeout, url) = (self.leaseTimeout, self.workTimeout, self.url)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.await(continuation)
                let pool = self.pool.withLock { $0 }
                let lease = Task { [self] in
                    do {
                        let value = try await pool.client.withConnection { connection in
                            guard answer.leased() else { throw CancellationError() }
                            guard !connection.isClosed else {
                                answer.give(.failure(ClosedConnection()))
                                throw ClosedConnection()
                            }
                            leaseWait.record(duration: ContinuousClock.now - askedAt)
                            // Counted in use until its work ends or is abandoned, whichever comes first.
                            leased.add(1, ordering: .relaxed)
                            let inUse = Atomic<Bool>(true)
                            let release: @Sendable () -> Void = { [self] in
                                if inUse.exchange(false, ordering: .relaxed) { leased.subtract(1, ordering: .relaxed) }
                            }
                            defer { release() }
                            let workDeadline = min(ContinuousClock.now + workTimeout, latest)
                            let deadline = leaseWatchdog.watch(until: workDeadline) { [self] in
                                let timeout = PostgresWorkTimeout(after: workTimeout, duringCommit: phase.isCommitting)
                                guard answer.give(.failure(timeout)) else { return }
                                workTimeouts.increment()
                                release()
                                workAbandoned(on: pool)
                                // A statement on a session the server dropped may wait for good
                                // (postgres-nio): cancelling it and closing the connection frees
                                // the pool's slot.
                                answer.cancelLease()
                                Task { try? await connection.close() }
                            }
                            defer { leaseWatchdog.forget(deadline) }
                            return try await body(connection)
                        }
                        answer.give(.success(value))
                    } catch {
                        answer.give(.failure(error))
                    }
                }
                answer.cancelWith { lease.cancel() }
                let leaseDeadline = leaseWatchdog.watch(until: min(.now + leaseTimeout, latest)) { [self] in
                    guard answer.timeOutLease(PostgresStoreError.unreachable(
                        "no connection to \(url.host):\(url.port) within \(leaseTimeout)")) else { return }
                    leaseTimeouts.increment()
                    lease.cancel()
                }
                answer.onLeased { [leaseWatchdog] in leaseWatchdog.forget(leaseDeadline) }
            }
        } onCancel: {
            answer.cancel()
        }
    }
}

/// A connection's work that did not finish within `ClusterDatabase.workTimeout`: the connection
/// was closed under it. `duringCommit`: the commit had been sent, so it may have taken effect.
public struct PostgresWorkTimeout: Error, CustomStringConvertible {
    public let after: Duration
    public let duringCommit: Bool

    public init(after: Duration, duringCommit: Bool) {
        self.after = after
        self.duringCommit = duringCommit
    }

    public var description: String {
        "PostgreSQL did not finish within \(after)\(duringCommit ? " (during the commit: outcome unknown)" : "")"
    }
}

/// The connection was lost while its commit was under way: the transaction may have committed.
public struct PostgresCommitUnknown: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "the commit's outcome is unknown: \(reason)" }
}

/// A connection the pool lent after its session had ended.
struct ClosedConnection: Error {}

/// Whether a transaction has sent its commit, for what a timeout may say of it.
final class WorkPhase: Sendable {
    private let committing = Atomic<Bool>(false)
    func beginCommit() { committing.store(true, ordering: .releasing) }
    var isCommitting: Bool { committing.load(ordering: .acquiring) }
}
