import CoreMetrics
import LifeSignalUV

/// A swift-metrics backend that keeps what was emitted, passed to the code under test as its
/// factory rather than bootstrapped (a process may bootstrap only once).
final class RecordingMetrics: MetricsFactory, @unchecked Sendable {
    private let counters = Locked<[String: Int64]>([:])
    private let gauges = Locked<[String: [Double]]>([:])

    /// `label{name=value,…}`, as a key.
    static func key(_ label: String, _ dimensions: [(String, String)]) -> String {
        dimensions.isEmpty ? label : label + "{" + dimensions.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + "}"
    }

    func counter(_ key: String) -> Int64 { counters.withLock { $0[key] ?? 0 } }
    func gauge(_ key: String) -> [Double] { gauges.withLock { $0[key] ?? [] } }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        Counting(key: Self.key(label, dimensions), counters: counters)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        Recording(key: Self.key(label, dimensions), values: gauges)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { NOOPMetricsHandler.instance }
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}

    private final class Counting: CounterHandler, @unchecked Sendable {
        let key: String
        let counters: Locked<[String: Int64]>
        init(key: String, counters: Locked<[String: Int64]>) { (self.key, self.counters) = (key, counters) }
        func increment(by amount: Int64) { counters.withLock { $0[key, default: 0] += amount } }
        func reset() { counters.withLock { $0[key] = 0 } }
    }

    private final class Recording: RecorderHandler, @unchecked Sendable {
        let key: String
        let values: Locked<[String: [Double]]>
        init(key: String, values: Locked<[String: [Double]]>) { (self.key, self.values) = (key, values) }
        func record(_ value: Int64) { record(Double(value)) }
        func record(_ value: Double) { values.withLock { $0[key, default: []].append(value) } }
    }
}
