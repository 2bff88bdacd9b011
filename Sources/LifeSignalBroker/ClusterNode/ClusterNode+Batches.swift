import LifeSignalProtocol
import LifeSignalUV

/// Steps of many requests share transactions (DESIGN §7): a step waits in `queuedSteps` while
/// a batch is running, and the next batch takes every step then waiting.
/// At low load a batch is one step and adds no wait; at high load batches grow, and each
/// step's share of a transaction's round trips shrinks.
extension ClusterNode {
    struct QueuedStep {
        let step: ClusterExecutor.BatchedStep
        let completion: @Sendable (Result<ClusterExecutor.BatchOutcome, any Error>) -> Void
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
        queuedSteps.append(QueuedStep(step: step, completion: completion))
        startBatches()
    }

    private func startBatches() {
        while batchesInFlight < Self.maxBatchesInFlight, !queuedSteps.isEmpty {
            let batch = Array(queuedSteps.prefix(Self.maxBatchSize))
            queuedSteps.removeFirst(batch.count)
            batchesInFlight += 1
            let steps = batch.map(\.step)
            let startNs = MonotonicClock.nowNs()
            run({ try await $0.performBatch(steps, now: WallClock.nowMs()) }, then: { [self] result in
                batchesInFlight -= 1
                let failed = if case .failure = result { true } else { false }
                commitMetrics.committed(writes: batch.count, startNs: startNs, failed: failed)
                broker?.onLoop { $0.storeBacklog -= batch.count }
                switch result {
                case .success(let commit):
                    publish(commit.events, pushes: commit.pushes, notifications: commit.notifications)
                    for (queued, outcome) in zip(batch, commit.outcomes) { queued.completion(.success(outcome)) }
                case .failure(let error):
                    for queued in batch { queued.completion(.failure(error)) }
                }
                startBatches()
            })
        }
    }
}
