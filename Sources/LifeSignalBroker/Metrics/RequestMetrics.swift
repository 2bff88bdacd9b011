import LifeSignalProtocol
import LifeSignalUV

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

    /// Answers by op and result, then latency buckets by op, then latency sums by op (the layout
    /// of `RequestCounts`): one block written through a pointer, since an array's uniqueness and
    /// bounds checks on every answer show in the keepalive benchmark.
    private let cells: UnsafeMutablePointer<UInt64>
    /// The op looked up last: a connection tends to send one op many times, and comparing two
    /// short strings costs less than hashing one. Unchecked: the loop is the only thread here.
    @exclusivity(unchecked) private var lastOp = ("", UInt8(0))

    /// The broker's loop, whose iteration clock stamps requests and answers. Unowned: the loop
    /// outlives the broker that holds this.
    unowned(unsafe) let loop: EventLoop

    init(loop: EventLoop) {
        self.loop = loop
        cells = .allocate(capacity: RequestCounts.cellCount)
        cells.initialize(repeating: 0, count: RequestCounts.cellCount)
    }

    deinit { cells.deallocate() }

    static func opIndex(of op: String) -> UInt8 { opIndexes[op] ?? unknownOp }

    /// `opIndex(of:)`, remembering the last answer.
    func index(of op: String) -> UInt8 {
        if op == lastOp.0 { return lastOp.1 }
        let index = Self.opIndex(of: op)
        lastOp = (op, index)
        return index
    }

    static func resultIndex(of code: ProtocolError.Code?) -> Int {
        guard let code else { return 0 }
        return errorIndexes[code] ?? resultLabels.count - 1
    }

    func record(op: UInt8, result code: ProtocolError.Code?, durationNs: UInt64) {
        RequestCounts.record(op: Int(op), result: Self.resultIndex(of: code), durationNs: durationNs, in: cells)
    }

    /// What has been counted so far (a copy), for a scrape.
    var snapshot: RequestCounts { RequestCounts(copying: cells) }
}

/// `RequestMetrics`' counts, and their Prometheus text.
public struct RequestCounts: Sendable, Equatable {
    private static let ops = RequestMetrics.opLabels.count
    private static let results = RequestMetrics.resultLabels.count
    private static let buckets = RequestMetrics.bucketBoundsNs.count + 1
    static let cellCount = ops * results + ops * buckets + ops

    /// By op, then result.
    private(set) var answers: [UInt64]
    /// By op, then latency bucket (each bucket's own count, not cumulative).
    private(set) var latencies: [UInt64]
    private(set) var latencySumsNs: [UInt64]

    init(copying cells: UnsafeMutablePointer<UInt64>) {
        let all = UnsafeBufferPointer(start: cells, count: Self.cellCount)
        answers = Array(all[0..<(Self.ops * Self.results)])
        latencies = Array(all[(Self.ops * Self.results)..<(Self.ops * (Self.results + Self.buckets))])
        latencySumsNs = Array(all[(Self.ops * (Self.results + Self.buckets))...])
    }

    @inline(__always)
    static func record(op: Int, result: Int, durationNs: UInt64, in cells: UnsafeMutablePointer<UInt64>) {
        cells[op * results + result] &+= 1
        var bucket = 0
        for bound in RequestMetrics.bucketBoundsNs {
            if durationNs <= bound { break }
            bucket += 1
        }
        cells[ops * results + op * buckets + bucket] &+= 1
        cells[ops * (results + buckets) + op] &+= durationNs
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
