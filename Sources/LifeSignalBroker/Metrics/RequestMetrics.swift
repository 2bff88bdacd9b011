import LifeSignalProtocol

/// Requests by op and result, and their latency by op, from the loop iteration that read the
/// request to the one that wrote its answer (`EventLoop.iterationNowNs`).
///
/// Counted in plain arrays on the loop and written out only when scraped: through a swift-metrics
/// counter and histogram per answer (an atomic add, and a lock and a bucket search over `Duration`s)
/// the keepalive benchmark's broker CPU per answer grew by a third (docs/BENCHMARKS.md, "Issue 15").
/// Label values come from fixed lists, never from what a client sent, so a client cannot grow the
/// number of series. Loop thread only; `@unchecked Sendable` so that the broker can hold it.
final class RequestMetrics: @unchecked Sendable {
    /// Every op of version 1, then `unknown` (an op no version has) and `invalid` (a frame that is
    /// not a request: bad JSON, no op, or a broken frame).
    static let opLabels: [String] = Op.all.sorted() + ["unknown", "invalid"]
    static let unknownOp = UInt8(opLabels.count - 2)
    static let invalidFrame = UInt8(opLabels.count - 1)
    /// `ok`, every code of version 1, then `other` for a code a later version adds.
    static let resultLabels: [String] = ["ok"] + ProtocolError.Code.allV1.map(\.rawValue) + ["other"]
    /// Upper bounds of the latency buckets, in nanoseconds; one more bucket holds the rest (+Inf).
    static let bucketBoundsNs: [UInt64] = MetricsExport.durationBuckets.map { duration in
        UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000)
    }

    private static let opIndexes: [String: UInt8] = Dictionary(
        uniqueKeysWithValues: opLabels.prefix(opLabels.count - 2).enumerated().map { ($1, UInt8($0)) })
    private static let errorIndexes: [ProtocolError.Code: Int] = Dictionary(
        uniqueKeysWithValues: ProtocolError.Code.allV1.enumerated().map { ($1, $0 + 1) })

    // Unchecked: the loop is the only thread that touches it, and a checked access per answer shows.
    @exclusivity(unchecked) private var counts = RequestCounts()

    static func opIndex(of op: String) -> UInt8 { opIndexes[op] ?? unknownOp }

    static func resultIndex(of code: ProtocolError.Code?) -> Int {
        guard let code else { return 0 }
        return errorIndexes[code] ?? resultLabels.count - 1
    }

    func record(op: UInt8, result code: ProtocolError.Code?, durationNs: UInt64) {
        counts.record(op: Int(op), result: Self.resultIndex(of: code), durationNs: durationNs)
    }

    /// What has been counted so far (a copy), for a scrape.
    var snapshot: RequestCounts { counts }
}

/// `RequestMetrics`' counts, and their Prometheus text.
public struct RequestCounts: Sendable, Equatable {
    private static let ops = RequestMetrics.opLabels.count
    private static let results = RequestMetrics.resultLabels.count
    private static let buckets = RequestMetrics.bucketBoundsNs.count + 1

    /// By op, then result.
    private(set) var answers = [UInt64](repeating: 0, count: ops * results)
    /// By op, then latency bucket (each bucket's own count, not cumulative).
    private(set) var latencies = [UInt64](repeating: 0, count: ops * buckets)
    private(set) var latencySumsNs = [UInt64](repeating: 0, count: ops)

    mutating func record(op: Int, result: Int, durationNs: UInt64) {
        answers[op * Self.results + result] &+= 1
        var bucket = 0
        for bound in RequestMetrics.bucketBoundsNs {
            if durationNs <= bound { break }
            bucket += 1
        }
        latencies[op * Self.buckets + bucket] &+= 1
        latencySumsNs[op] &+= durationNs
    }

    /// Appends the two families in Prometheus text format 0.0.4; series never seen are left out.
    public func render(into text: inout String) {
        text += "# TYPE \(MetricName.requests) counter\n"
        for op in 0..<Self.ops {
            for result in 0..<Self.results where answers[op * Self.results + result] > 0 {
                text += "\(MetricName.requests){op=\"\(RequestMetrics.opLabels[op])\",result=\"\(RequestMetrics.resultLabels[result])\"} \(answers[op * Self.results + result])\n"
            }
        }
        let name = MetricName.requestDuration
        text += "# TYPE \(name) histogram\n"
        for op in 0..<Self.ops {
            let counts = latencies[(op * Self.buckets)..<((op + 1) * Self.buckets)]
            let total = counts.reduce(0, &+)
            guard total > 0 else { continue }
            let label = "op=\"\(RequestMetrics.opLabels[op])\""
            var cumulative: UInt64 = 0
            for (bound, count) in zip(RequestMetrics.bucketBoundsNs, counts) {
                cumulative &+= count
                text += "\(name)_bucket{\(label),le=\"\(Double(bound) / 1e9)\"} \(cumulative)\n"
            }
            text += "\(name)_bucket{\(label),le=\"+Inf\"} \(total)\n"
            text += "\(name)_sum{\(label)} \(Double(latencySumsNs[op]) / 1e9)\n"
            text += "\(name)_count{\(label)} \(total)\n"
        }
    }
}
