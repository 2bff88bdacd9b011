import LifeSignalPostgres
import LifeSignalStoreSQLite
import LifeSignalUV

/// `/readyz`: whether this broker should be sent devices. Ready when it accepts connections and
/// its store answers: a write goes through the embedded store's group commit, or a transaction
/// commits through a pooled PostgreSQL connection, within `timeout`, and (cluster) no batch of
/// requests has been under way for longer than the store's deadlines allow.
public struct Readiness: Sendable, Equatable {
    public var accepting: Bool
    /// nil when the store answered; else why not.
    public var storeProblem: String?
    /// The embedded broker has scheduled the stored check-in deadlines (a cluster keeps them in
    /// PostgreSQL: always true).
    public var deadlinesScheduled = true

    public var isReady: Bool { accepting && storeProblem == nil && deadlinesScheduled }

    /// One line per check, for the endpoint's body.
    public var report: String {
        """
        accepting: \(accepting ? "yes" : "no (not listening)")
        store: \(storeProblem.map { "unreachable (\($0))" } ?? "ok")
        deadlines: \(deadlinesScheduled ? "scheduled" : "not scheduled yet (the store could not be read)")

        """
    }
}

extension Broker {
    /// From any task: what is read of the broker is read on its loop, in one turn, and the store
    /// is probed from here. A broker whose loop has stopped is not ready.
    public func readiness(timeout: Duration = .seconds(2)) async -> Readiness {
        guard let (accepting, stuckBatches, deadlinesScheduled) = try? await onLoopAsync({ broker in
            (broker.isAccepting, Result { try broker.cluster?.checkBatchesAreMoving() },
             broker.cluster != nil || broker.serving?.deadlines?.hasLoadedStored == true)
        }) else {
            return Readiness(accepting: false, storeProblem: nil)
        }
        let storeProblem: String?
        do {
            try stuckBatches.get()
            try await withDeadline(timeout) { [store, cluster] in
                if let cluster {
                    try await cluster.executor.probeCommit(brokerID: cluster.brokerID)
                } else if let store {
                    try await store.probe()
                }
            }
            storeProblem = nil
        } catch {
            storeProblem = "\(error)"
        }
        return Readiness(accepting: accepting, storeProblem: storeProblem, deadlinesScheduled: deadlinesScheduled)
    }
}

extension BrokerStore {
    /// A write through the group commit that needs room on the disk, as every real write does:
    /// ready means this broker can commit now.
    func probe() async throws {
        var write = StoreWrite(changes: [])
        write.isReadinessProbe = true
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            submit(write) { result in
                continuation.resume(with: result.map { _ in () })
            }
        }
    }
}
