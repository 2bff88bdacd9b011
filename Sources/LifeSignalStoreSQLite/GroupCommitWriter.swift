import Foundation
import GRDB
import LifeSignalEngine
import LifeSignalUV

/// The store's single writer. Every write submitted while a batch commits goes into the
/// next transaction, so durable throughput comes from batch size rather than from
/// relaxing fsync. A write that fails rolls back alone: its batch then runs again with a
/// savepoint per write.
package final class GroupCommitWriter: Sendable {
    package typealias Completion = @Sendable (Result<StoreWriteResult, Error>) -> Void

    private struct Pending: Sendable {
        package var write: StoreWrite
        package var completion: Completion
    }

    /// The writer's own statements, prepared on its connection with the first batch.
    private struct Statements {
        package let writes: SQLiteWrites
        package let reads: SQLiteReads
    }

    private struct Queue: ~Copyable {
        package var pending: [Pending] = []
        package var closing = false
    }

    private let pool: DatabasePool
    private let checkpointer: WALCheckpointer
    private let scheduler: CompletionScheduler
    private let queue = Locked(Queue())
    private let wakeup = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let metrics = CommitMetrics()
    /// For tests: a batch that would write fails with SQLITE_FULL, as on a disk with no room,
    /// while a batch of reads alone still runs (an empty transaction commits on a full disk).
    package let simulatedFullDisk = Locked(false)

    package init(pool: DatabasePool, checkpointer: WALCheckpointer, scheduler: @escaping CompletionScheduler) {
        self.pool = pool
        self.checkpointer = checkpointer
        self.scheduler = scheduler
        StoreThread.start(named: "lifesignal.store.writer") { [self] in runLoop() }
    }

    package func submit(_ write: StoreWrite, completion: @escaping Completion) {
        let wasIdle = queue.withLock { queue in
            let wasIdle = queue.pending.isEmpty
            queue.pending.append(Pending(write: write, completion: completion))
            return wasIdle
        }
        if wasIdle { wakeup.signal() }
    }

    /// For tests: the writes go into one batch (unless a batch already holds some of them).
    package func submitTogether(_ writes: [(StoreWrite, Completion)]) {
        let wasIdle = queue.withLock { queue in
            let wasIdle = queue.pending.isEmpty
            queue.pending += writes.map { Pending(write: $0.0, completion: $0.1) }
            return wasIdle
        }
        if wasIdle { wakeup.signal() }
    }

    /// Commits what is queued, then stops the thread.
    package func close() {
        queue.withLock { $0.closing = true }
        wakeup.signal()
        finished.wait()
    }

    private func runLoop() {
        // Prepared on the first batch, on the writer's connection, and used only by this thread.
        var statements: Statements?
        while true {
            wakeup.wait()
            let (batch, closing) = queue.withLock { queue in
                let batch = queue.pending
                queue.pending.removeAll(keepingCapacity: true)
                return (batch, queue.closing)
            }
            if !batch.isEmpty {
                checkpointer.pauseIfDue()
                commit(batch, &statements)
            }
            if closing && queue.withLock({ $0.pending.isEmpty }) { break }
        }
        finished.signal()
    }

    private func commit(_ batch: [Pending], _ prepared: inout Statements?) {
        let startNs = MonotonicClock.nowNs()
        var results: [Result<StoreWriteResult, Error>]
        var failed = false
        do {
            results = try pool.writeWithoutTransaction { db in
                if simulatedFullDisk.withLock({ $0 }),
                   batch.contains(where: { !$0.write.changes.isEmpty || $0.write.isReadinessProbe }) {
                    throw DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full (simulated)")
                }
                let statements = try prepared ?? Statements(writes: SQLiteWrites(db), reads: SQLiteReads(db))
                prepared = statements
                // Fast path: no savepoints. Writes are computed from the sessions' memory and do not
                // fail unless something is wrong, while a savepoint per write costs two statements and
                // a copy of every page it touches. If one fails, the whole attempt rolls back and the
                // batch runs again with a savepoint per write, so that only the failing one is lost.
                if let results = try Self.applyAll(batch, statements, db) { return results }
                var results: [Result<StoreWriteResult, Error>] = []
                results.reserveCapacity(batch.count)
                try db.inTransaction(.immediate) {
                    for item in batch { results.append(Self.applyInSavepoint(item.write, statements, db)) }
                    return .commit
                }
                return results
            }
        } catch {
            // The commit itself failed: nothing of this batch is durable. A read needs no room on
            // the disk, so it is answered all the same (a full disk must not keep users out).
            results = batch.map { item in
                item.write.changes.isEmpty && !item.write.isReadinessProbe ? read(item.write, &prepared) : .failure(error)
            }
            failed = true
        }
        metrics.committed(writes: batch.count, startNs: startNs, failed: failed)
        let completions = zip(batch, results).map { ($0.completion, $1) }
        scheduler {
            for (completion, result) in completions { completion(result) }
        }
    }

    /// A write without changes, alone in a read-only transaction.
    private func read(_ write: StoreWrite, _ prepared: inout Statements?) -> Result<StoreWriteResult, Error> {
        Result {
            try pool.writeWithoutTransaction { db in
                let statements = try prepared ?? Statements(writes: SQLiteWrites(db), reads: SQLiteReads(db))
                prepared = statements
                var result = StoreWriteResult()
                try db.inTransaction(.deferred) {
                    result = try Self.apply(write, statements, db)
                    return .commit
                }
                return result
            }
        }
    }

    /// Applies the whole batch in one transaction with no savepoints; nil (and nothing
    /// changed) if any write failed.
    private static func applyAll(_ batch: [Pending], _ statements: Statements, _ db: Database) throws
        -> [Result<StoreWriteResult, Error>]?
    {
        var results: [Result<StoreWriteResult, Error>] = []
        results.reserveCapacity(batch.count)
        var failed = false
        try db.inTransaction(.immediate) {
            for item in batch {
                do {
                    results.append(.success(try apply(item.write, statements, db)))
                } catch {
                    failed = true
                    return .rollback
                }
            }
            return .commit
        }
        return failed ? nil : results
    }

    private static func apply(_ write: StoreWrite, _ statements: Statements, _ db: Database) throws
        -> StoreWriteResult
    {
        var result = StoreWriteResult()
        if write.isReadinessProbe {
            try db.cachedStatement(sql: """
                INSERT INTO readiness_probe (id, probed_at) VALUES (1, ?)
                    ON CONFLICT (id) DO UPDATE SET probed_at = excluded.probed_at
                """).execute(arguments: [WallClock.nowMs()])
        }
        try statements.writes.apply(write.changes, db)
        if let query = write.query { result.queryResult = try statements.reads.answer(query, db) }
        return result
    }

    private static func applyInSavepoint(_ write: StoreWrite, _ statements: Statements, _ db: Database)
        -> Result<StoreWriteResult, Error>
    {
        var result = StoreWriteResult()
        do {
            try db.inSavepoint {
                result = try apply(write, statements, db)
                return .commit
            }
            return .success(result)
        } catch {
            return .failure(error)
        }
    }
}
