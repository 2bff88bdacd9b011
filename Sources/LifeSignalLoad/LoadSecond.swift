import Histogram
import LifeSignalProtocol

/// One second of a run's measured window, as `--out` keeps it: what was sent, answered and
/// delivered in it, the errors by code, and the latency percentiles of what completed in it.
package struct LoadSecond {
    /// Seconds from the window's start to the end of this second.
    let endSeconds: Double
    let sent: UInt64
    let answered: UInt64
    let delivered: UInt64
    let errors: [String: UInt64]
    /// Of the latencies recorded in this second; nil when none was.
    let p50Us: UInt64?
    let p99Us: UInt64?

    init(endSeconds: Double, sent: UInt64, answered: UInt64, delivered: UInt64, errors: [String: UInt64],
         latencyUs: Histogram<UInt64>) {
        (self.endSeconds, self.sent, self.answered, self.delivered, self.errors) =
            (endSeconds, sent, answered, delivered, errors)
        let any = latencyUs.totalCount > 0
        p50Us = any ? latencyUs.valueAtPercentile(50) : nil
        p99Us = any ? latencyUs.valueAtPercentile(99) : nil
    }

    package var json: JSONValue {
        .object([
            "t": .double(NumberFormat.rounded(endSeconds, 3)),
            "sent": .int(Int64(sent)),
            "answered": .int(Int64(answered)),
            "delivered": .int(Int64(delivered)),
            "errors": .object(JSONObject(errors.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })),
            "p50Us": p50Us.map { .int(Int64($0)) } ?? .null,
            "p99Us": p99Us.map { .int(Int64($0)) } ?? .null,
        ])
    }
}

/// Takes a second of the series at each progress tick of the window.
struct LoadSeries {
    private(set) var seconds: [LoadSecond] = []
    private var sent: UInt64 = 0
    private var answered: UInt64 = 0
    private var delivered: UInt64 = 0
    private var errors: [String: UInt64] = [:]

    /// Starts over from the counts at the window's start.
    mutating func start(sent: UInt64, stats: LoadStats) {
        seconds = []
        (self.sent, answered, delivered, errors) = (sent, stats.responses, stats.delivered, stats.errors)
    }

    /// A second ends: the differences since the last one.
    mutating func tick(endSeconds: Double, sent: UInt64, stats: inout LoadStats) {
        var newErrors: [String: UInt64] = [:]
        for (code, count) in stats.errors where count > errors[code, default: 0] {
            newErrors[code] = count - errors[code, default: 0]
        }
        seconds.append(LoadSecond(
            endSeconds: endSeconds, sent: sent - self.sent, answered: stats.responses - answered,
            delivered: stats.delivered - delivered, errors: newErrors, latencyUs: stats.takeInterval()))
        (self.sent, answered, delivered, errors) = (sent, stats.responses, stats.delivered, stats.errors)
    }
}
