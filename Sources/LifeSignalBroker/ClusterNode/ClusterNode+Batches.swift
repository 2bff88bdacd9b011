import LifeSignalProtocol

/// Steps of many requests share transactions (DESIGN §7): a step waits in `queuedSteps` while
/// `maxBatchesInFlight` batches are running, and the next batch takes every step then waiting.
/// At low load a batch is one step and adds no wait; at high load batches grow, and each
/// step's share of a transaction's round trips shrinks.
extension ClusterNode {
    struct QueuedStep {
        let step: ClusterExecutor.BatchedStep
        let completion: @Sendable (Result<ClusterExecutor.BatchOutcome, any Error>) -> Void
    }

    static let maxBatchSize = 64

    /// Batches running at once: half the pool, leaving connections for hellos, reads and the
    /// housekeeping.
    var maxBatchesInFlight: Int { max(1, executor.database.url.poolSize / 2) }

    /// Runs `step` in the next batch; `completion` on the loop once that batch is over (its events
    /// already published).
    func submit(_ step: ClusterExecutor.BatchedStep,
                completion: @escaping @Sendable (Result<ClusterExecutor.BatchOutcome, any Error>) -> Void) {
        broker?.assumeIsolated { $0.storeBacklog += 1 }
        queuedSteps.append(QueuedStep(step: step, completion: completion))
        startBatches()
    }

    private func startBatches() {
        while batchesInFlight < maxBatchesInFlight, !queuedSteps.isEmpty {
            let batch = Array(queuedSteps.prefix(Self.maxBatchSize))
            queuedSteps.removeFirst(batch.count)
            batchesInFlight += 1
            let steps = batch.map(\.step)
            run({ try await $0.performBatch(steps, now: WallClock.nowMs()) }, then: { [self] result in
                batchesInFlight -= 1
                broker?.assumeIsolated { $0.storeBacklog -= batch.count }
                switch result {
                case .success(let commit):
                    publish(commit.events, pushes: commit.pushes)
                    for (queued, outcome) in zip(batch, commit.outcomes) { queued.completion(.success(outcome)) }
                case .failure(let error):
                    for queued in batch { queued.completion(.failure(error)) }
                }
                startBatches()
            })
        }
    }
}
