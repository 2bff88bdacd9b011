import LifeSignalProtocol
import LifeSignalUV
import Testing

@testable import LifeSignalBroker

/// Requests by op and result: labels from fixed lists only, one latency per answer, written out
/// as Prometheus text.
@Suite struct RequestMetricsTests {
    @Test func countsByOpAndResultAndTimesByOp() throws {
        let loop = try EventLoop()
        defer { withExtendedLifetime(loop) {} }
        let requests = RequestMetrics(loop: loop)
        let ping = RequestMetrics.opIndex(of: Op.pingSend)
        requests.record(op: ping, result: nil, durationNs: 10_000)  // ≤ 50 µs
        requests.record(op: ping, result: nil, durationNs: 3_000_000)  // ≤ 5 ms
        requests.record(op: ping, result: .notFound, durationNs: 60_000)  // ≤ 100 µs
        requests.record(op: RequestMetrics.opIndex(of: Op.keepalive), result: nil, durationNs: 9_000_000_000)

        var text = ""
        requests.snapshot.render(into: &text)
        let lines = Set(text.split(separator: "\n").map(String.init))
        let expected = [
            #"lifesignal_requests_total{op="ping.send",result="ok"} 2"#,
            #"lifesignal_requests_total{op="ping.send",result="not_found"} 1"#,
            #"lifesignal_requests_total{op="keepalive",result="ok"} 1"#,
            #"lifesignal_request_duration_seconds_bucket{op="ping.send",le="5e-05"} 1"#,
            #"lifesignal_request_duration_seconds_bucket{op="ping.send",le="0.0001"} 2"#,
            #"lifesignal_request_duration_seconds_bucket{op="ping.send",le="0.005"} 3"#,
            #"lifesignal_request_duration_seconds_bucket{op="ping.send",le="+Inf"} 3"#,
            #"lifesignal_request_duration_seconds_count{op="ping.send"} 3"#,
            #"lifesignal_request_duration_seconds_sum{op="ping.send"} 0.00307"#,
            // Past the last bound: only in +Inf.
            #"lifesignal_request_duration_seconds_bucket{op="keepalive",le="5.0"} 0"#,
            #"lifesignal_request_duration_seconds_bucket{op="keepalive",le="+Inf"} 1"#,
        ]
        for line in expected { #expect(lines.contains(line), "missing \(line) in\n\(text)") }
        // Ops and results never seen are not written.
        #expect(!text.contains(#"op="hello""#))
        #expect(text.components(separatedBy: "# TYPE").count == 3)
    }

    @Test func anOpNoVersionHasIsUnknown() {
        #expect(RequestMetrics.opLabels[Int(RequestMetrics.opIndex(of: "x.\(UInt64.random(in: 0...UInt64.max))"))] == "unknown")
        #expect(RequestMetrics.opLabels[Int(RequestMetrics.opIndex(of: Op.hello))] == "hello")
        #expect(RequestMetrics.opLabels[Int(RequestMetrics.invalidFrame)] == "invalid")
    }

    @Test func aCodeOfALaterVersionIsOther() {
        let later = ProtocolError.Code(rawValue: "from_the_future")
        #expect(RequestMetrics.resultLabels[RequestMetrics.resultIndex(of: later)] == "other")
        for code in ProtocolError.Code.allV1 {
            #expect(RequestMetrics.resultLabels[RequestMetrics.resultIndex(of: code)] == code.rawValue)
        }
    }

    @Test func everyOpIndexFitsTheInFlightPacking() {
        #expect(RequestMetrics.opLabels.count < 255)
    }
}
