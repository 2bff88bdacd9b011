import CoreMetrics
import LifeSignalProtocol

/// Requests by op and result, and their latency by op, from a frame's arrival to its answer's
/// write. Label values come from fixed lists, never from what a client sent, so a client cannot
/// grow the number of series. Handles are made on first use: series that never happen are not
/// exported.
///
/// Loop thread only (like the connections that record into it); `@unchecked Sendable` so that the
/// broker can hold it.
final class RequestMetrics: @unchecked Sendable {
    /// Every op of version 1, then `unknown` (an op no version has) and `invalid` (a frame that is
    /// not a request: bad JSON, no op, or a broken frame).
    static let opLabels: [String] = Op.all.sorted() + ["unknown", "invalid"]
    static let unknownOp = UInt8(opLabels.count - 2)
    static let invalidFrame = UInt8(opLabels.count - 1)
    /// `ok`, every code of version 1, then `other` for a code a later version adds.
    static let resultLabels: [String] = ["ok"] + ProtocolError.Code.allV1.map(\.rawValue) + ["other"]

    private static let opIndexes: [String: UInt8] = Dictionary(
        uniqueKeysWithValues: opLabels.prefix(opLabels.count - 2).enumerated().map { ($1, UInt8($0)) })
    private static let errorIndexes: [ProtocolError.Code: Int] = Dictionary(
        uniqueKeysWithValues: ProtocolError.Code.allV1.enumerated().map { ($1, $0 + 1) })

    private let factory: any MetricsFactory
    private var counters: [CoreMetrics.Counter?]
    private var durations: [CoreMetrics.Timer?]

    init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        counters = Array(repeating: nil, count: Self.opLabels.count * Self.resultLabels.count)
        durations = Array(repeating: nil, count: Self.opLabels.count)
    }

    static func opIndex(of op: String) -> UInt8 { opIndexes[op] ?? unknownOp }

    static func resultIndex(of code: ProtocolError.Code?) -> Int {
        guard let code else { return 0 }
        return errorIndexes[code] ?? resultLabels.count - 1
    }

    func record(op: UInt8, result code: ProtocolError.Code?, durationNs: UInt64) {
        let op = Int(op)
        let result = Self.resultIndex(of: code)
        let slot = op * Self.resultLabels.count + result
        if counters[slot] == nil {
            counters[slot] = CoreMetrics.Counter(
                label: MetricName.requests,
                dimensions: [("op", Self.opLabels[op]), ("result", Self.resultLabels[result])], factory: factory)
        }
        counters[slot]!.increment()
        if durations[op] == nil {
            durations[op] = CoreMetrics.Timer(
                label: MetricName.requestDuration, dimensions: [("op", Self.opLabels[op])], factory: factory)
        }
        durations[op]!.recordNanoseconds(Int64(truncatingIfNeeded: durationNs))
    }
}
