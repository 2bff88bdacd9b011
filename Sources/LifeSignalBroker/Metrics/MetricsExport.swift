import CoreMetrics
import Prometheus

/// Bootstraps swift-metrics with the Prometheus exporter, once per process (`lsbroker serve
/// --metrics-port`). Latencies of tens of microseconds are the usual case here, so the duration
/// buckets start at 50 µs.
public enum MetricsExport {
    static let durationBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
        .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
    ]
    static let batchSizeBuckets: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096]

    /// The registry `/metrics` writes out. Call before the broker is made: its handles come from
    /// the system bootstrapped here.
    public static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = durationBuckets
        factory.valueHistogramBuckets[MetricName.commitBatchSize] = batchSizeBuckets
        MetricsSystem.bootstrap(factory)
        return registry
    }
}
