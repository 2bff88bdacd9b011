import LifeSignalProtocol
import MetricsTestKit
import Testing

@testable import LifeSignalBroker

/// Requests by op and result: labels from fixed lists only, one latency per answer.
@Suite struct RequestMetricsTests {
    @Test func countsByOpAndResultAndTimesByOp() throws {
        let metrics = TestMetrics()
        let requests = RequestMetrics(factory: metrics)
        let ping = RequestMetrics.opIndex(of: Op.pingSend)
        requests.record(op: ping, result: nil, durationNs: 1_000)
        requests.record(op: ping, result: nil, durationNs: 3_000)
        requests.record(op: ping, result: .notFound, durationNs: 2_000)

        let ok = try metrics.expectCounter(MetricName.requests, [("op", "ping.send"), ("result", "ok")])
        #expect(ok.totalValue == 2)
        let notFound = try metrics.expectCounter(MetricName.requests, [("op", "ping.send"), ("result", "not_found")])
        #expect(notFound.totalValue == 1)
        let durations = try metrics.expectTimer(MetricName.requestDuration, [("op", "ping.send")])
        #expect(durations.values == [1_000, 3_000, 2_000])
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
