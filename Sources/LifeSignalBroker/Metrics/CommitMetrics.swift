import CoreMetrics
import LifeSignalUV

/// Group commits, embedded (GroupCommitWriter) and cluster (ClusterNode's batches): how many
/// writes each transaction carried, how long it took, and how many failed.
struct CommitMetrics: Sendable {
    private let batchSize: Recorder
    private let duration: CoreMetrics.Timer
    private let failures: CoreMetrics.Counter

    init(factory: any MetricsFactory = MetricsSystem.factory) {
        batchSize = Recorder(label: MetricName.commitBatchSize, aggregate: true, factory: factory)
        duration = CoreMetrics.Timer(label: MetricName.commitDuration, factory: factory)
        failures = Counter(label: MetricName.commitFailures, factory: factory)
    }

    /// Records a transaction of `writes` writes that started at `startNs` (MonotonicClock).
    func committed(writes: Int, startNs: UInt64, failed: Bool) {
        batchSize.record(writes)
        duration.recordNanoseconds(Int64(truncatingIfNeeded: MonotonicClock.nowNs() &- startNs))
        if failed { failures.increment() }
    }
}
