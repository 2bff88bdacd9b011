import CoreMetrics
import LifeSignalUV

/// Group commits, embedded (GroupCommitWriter) and cluster (ClusterNode's batches): how many
/// writes each transaction carried, how long it took, and how many failed.
package struct CommitMetrics: Sendable {
    package static let batchSizeLabel = "lifesignal_commit_batch_writes"
    package static let durationLabel = "lifesignal_commit_duration_seconds"
    package static let failuresLabel = "lifesignal_commit_failures_total"

    private let batchSize: Recorder
    private let duration: CoreMetrics.Timer
    private let failures: CoreMetrics.Counter

    package init(factory: any MetricsFactory = MetricsSystem.factory) {
        batchSize = Recorder(label: Self.batchSizeLabel, aggregate: true, factory: factory)
        duration = CoreMetrics.Timer(label: Self.durationLabel, factory: factory)
        failures = Counter(label: Self.failuresLabel, factory: factory)
    }

    /// Records a transaction of `writes` writes that started at `startNs` (MonotonicClock).
    package func committed(writes: Int, startNs: UInt64, failed: Bool) {
        batchSize.record(writes)
        duration.recordNanoseconds(Int64(truncatingIfNeeded: MonotonicClock.nowNs() &- startNs))
        if failed { failures.increment() }
    }
}
