import Foundation
import GRDB
import Synchronization

/// The store's single writer. Every write submitted while a batch commits goes into the
/// next transaction, so durable throughput comes from batch size rather than from
/// relaxing fsync. Each write gets its own savepoint: one that fails rolls back alone.
final class GroupCommitWriter: Sendable {
    typealias Completion = @Sendable (Result<StoreWriteResult, Error>) -> Void

    private struct Pending: Sendable {
        var write: StoreWrite
        var completion: Completion
    }

    private struct Queue: ~Copyable {
        var pending: [Pending] = []
        var closing = false
    }

    private let pool: DatabasePool
    private let scheduler: CompletionScheduler
    private let queue = Mutex(Queue())
    private let wakeup = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(pool: DatabasePool, scheduler: @escaping CompletionScheduler) {
        self.pool = pool
        self.scheduler = scheduler
        Self.startThread(self)
    }

    func submit(_ write: StoreWrite, completion: @escaping Completion) {
        let wasIdle = queue.withLock { queue in
            let wasIdle = queue.pending.isEmpty
            queue.pending.append(Pending(write: write, completion: completion))
            return wasIdle
        }
        if wasIdle { wakeup.signal() }
    }

    /// Commits what is queued, then stops the thread.
    func close() {
        queue.withLock { $0.closing = true }
        wakeup.signal()
        finished.wait()
    }

    // A nonisolated static so the thread's closure is not main-actor isolated (DESIGN §2).
    private static func startThread(_ writer: GroupCommitWriter) {
        let thread = Thread { writer.runLoop() }
        thread.name = "lifesignal.store.writer"
        thread.start()
    }

    private func runLoop() {
        while true {
            wakeup.wait()
            let (batch, closing) = queue.withLock { queue in
                let batch = queue.pending
                queue.pending.removeAll(keepingCapacity: true)
                return (batch, queue.closing)
            }
            if !batch.isEmpty { commit(batch) }
            if closing && queue.withLock({ $0.pending.isEmpty }) { break }
        }
        finished.signal()
    }

    private func commit(_ batch: [Pending]) {
        var results: [Result<StoreWriteResult, Error>] = []
        results.reserveCapacity(batch.count)
        do {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    for item in batch {
                        results.append(Self.apply(item.write, db))
                    }
                    return .commit
                }
            }
        } catch {
            // The commit itself failed: nothing of this batch is durable.
            results = Array(repeating: .failure(error), count: batch.count)
        }
        let completions = zip(batch, results).map { ($0.completion, $1) }
        scheduler {
            for (completion, result) in completions { completion(result) }
        }
    }

    private static func apply(_ write: StoreWrite, _ db: Database) -> Result<StoreWriteResult, Error> {
        var result = StoreWriteResult()
        do {
            try db.inSavepoint {
                for change in write.changes { try SQLiteWrites.apply(change, db) }
                if let query = write.query { result.queryResult = try SQLiteReads.answer(query, db) }
                return .commit
            }
            return .success(result)
        } catch {
            return .failure(error)
        }
    }
}
