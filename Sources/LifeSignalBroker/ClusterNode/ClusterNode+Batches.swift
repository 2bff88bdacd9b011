import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalUV
import Logging

/// Steps of many requests share transactions (ARCHITECTURE.md, "The cluster"): a step waits in
/// `queuedSteps` while a batch is running, and the next batch takes every step then waiting. At low
/// load a batch is one step and adds no wait; at high load batches grow, and each step's share of a
/// transaction's round trips shrinks.
extension ClusterNode {
    struct QueuedStep {
        let step: ClusterExecutor.BatchedStep
        let completion: @Sendable (Result<ClusterExecutor.BatchOutcome, any Error>) -> Void
        /// When its answer is due: `--postgres-timeout` after it was submitted.
        let deadline: ContinuousClock.Instant
    }

    static let maxBatchSize = 64

    /// Batches running at once: one, so that the steps arriving while it runs form the next (group
    /// commit). Measured on 3 brokers at 5,000 pings/s (docs/BENCHMARKS.md): 1 in flight gave p99
    /// 79 ms, 2 gave 147 ms and 4 gave 300 ms, with the same throughput and less CPU: more batches
    /// at once are smaller, and each costs its round trips whatever its size.
    static let maxBatchesInFlight = 1

    /// Runs `step` in the next batch; `completion` on the loop once that batch is over (its events
    /// already published).
    func submit(_ step: ClusterExecutor.BatchedStep,
                completion: @escaping @Sendable (Result<ClusterExecutor.BatchOutcome, any Error>) -> Void) {
        broker?.onLoop { $0.storeBacklog += 1 }
        queuedSteps.append(QueuedStep(step: step, completion: completion,
                                      deadline: .now + executor.database.workTimeout))
        startBatches()
    }

    private func startBatches() {
        answerExpiredSteps()
        while batchesStartedNs.count < Self.maxBatchesInFlight, !queuedSteps.isEmpty {
            let batch = Array(queuedSteps.prefix(Self.maxBatchSize))
            queuedSteps.removeFirst(batch.count)
            // The batch ends when its oldest step's answer is due.
            let deadline = batch.map(\.deadline).min()!
            let steps = batch.map(\.step)
            let startNs = MonotonicClock.nowNs()
            batchesStartedNs.append(startNs)
            run({ try await $0.performBatch(steps, now: WallClock.nowMs(), deadline: deadline) }, then: { [self] result in
                if let index = batchesStartedNs.firstIndex(of: startNs) { batchesStartedNs.remove(at: index) }
                let failed = if case .failure = result { true } else { false }
                commitMetrics.committed(writes: batch.count, startNs: startNs, failed: failed)
                broker?.onLoop { $0.storeBacklog -= batch.count }
                switch result {
                case .success(let commit):
                    publish(commit.events, pushes: commit.pushes, notifications: commit.notifications)
                    for (queued, outcome) in zip(batch, commit.outcomes) { queued.completion(.success(outcome)) }
                case .failure(let error):
                    logBatchFailure(error, requests: batch.count)
                    for queued in batch { queued.completion(.failure(error)) }
                }
                startBatches()
            })
        }
    }

    /// Steps that waited for a batch until their answer was due (PostgreSQL stalled the one before
    /// them) are answered now, unrun: nothing was changed.
    private func answerExpiredSteps() {
        let now = ContinuousClock.now
        let expired = queuedSteps.prefix { $0.deadline <= now }
        guard !expired.isEmpty else { return }
        queuedSteps.removeFirst(expired.count)
        broker?.onLoop { $0.storeBacklog -= expired.count }
        let timeout = PostgresWorkTimeout(after: executor.database.workTimeout, duringCommit: false)
        logBatchFailure(timeout, requests: expired.count)
        for queued in expired { queued.completion(.failure(timeout)) }
    }

    /// How long the oldest batch under way has run (nil: none is): `/readyz` says this broker
    /// cannot commit while it is past the store's deadlines.
    var oldestBatchAgeNs: UInt64? {
        batchesStartedNs.min().map { MonotonicClock.nowNs() &- $0 }
    }

    /// A failed batch, logged as the embedded store logs a failed write, at most once per
    /// `LogThrottle.intervalMs` with the count of those left out.
    private func logBatchFailure(_ error: any Error, requests: Int) {
        logThrottled(.error, "store write failed", [
            "lifesignal.error": "\(ClusterDatabase.reason(error))", "lifesignal.requests": .stringConvertible(requests),
        ])
    }

    /// Throws when a batch has been under way for longer than a lease and its work may take: the
    /// store's deadlines should have ended it, so this broker cannot commit now.
    func checkBatchesAreMoving() throws {
        let database = executor.database
        let limit = database.leaseTimeout + database.workTimeout
        guard let age = oldestBatchAgeNs, Duration.nanoseconds(age) > limit else { return }
        throw StalledBatch(age: .nanoseconds(age))
    }
}

/// A batch of requests under way for longer than the store's deadlines allow.
struct StalledBatch: Error, CustomStringConvertible {
    let age: Duration
    var description: String { "a batch of requests has waited \(age.components.seconds) s for its commit" }
}
