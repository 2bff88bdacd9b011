import Foundation
import Histogram
import LifeSignalProtocol
import Testing

/// Issue 26, items 4 and 6: a load run kept as a file (its report, its seconds, its histogram and
/// an .hgrm beside it), and a run that mostly measured a limit of the broker says which.
@Suite("Load runs as files", .serialized)
struct LoadRunFileTests {
    @Test func aRunWrittenOutHoldsItsReportSeriesAndHistogram() throws {
        let broker = try BrokerProcess()
        let directory = TemporaryDirectory("load-run")
        let path = directory.url.appendingPathComponent("run.json").path
        let outcome = try LSClient(broker: broker).run(
            ["load", "pings", "--pairs", "2", "--rate", "50", "--duration", "2", "--warmup", "0", "--out", path],
            timeout: .seconds(60))
        #expect(outcome.status == 0, "stderr:\n\(outcome.stderr)")

        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let parsed = try JSONValue.parse(Array(bytes))
        let run = try #require(parsed.objectValue)
        #expect(run["format"]?.stringValue == "lifesignal-load-run/1")
        #expect(run["command"]?.arrayValue?.first?.stringValue == "load")
        #expect(run["settings"]?.objectValue?["devices"]?.intValue == 4)
        let report = try #require(run["report"]?.objectValue)
        #expect(report["scenario"]?.stringValue == "pings")

        // The seconds add up to the window's figures.
        let series = (run["series"]?.arrayValue ?? []).compactMap(\.objectValue)
        #expect(!series.isEmpty)
        let answered = series.compactMap { $0["answered"]?.intValue }.reduce(0, +)
        let delivered = series.compactMap { $0["delivered"]?.intValue }.reduce(0, +)
        #expect(answered == report["responses"]?.intValue)
        #expect(delivered == report["delivered"]?.intValue)

        // The whole histogram: every delivery's latency, and the report's percentiles from it.
        let histogramValue = try #require(run["latencyHistogramUs"])
        let histogramJSON = try histogramValue.serialized()
        let histogram = try JSONDecoder().decode(Histogram<UInt64>.self, from: Data(histogramJSON))
        #expect(Int64(histogram.totalCount) == report["delivered"]?.intValue)
        #expect(Int64(histogram.valueAtPercentile(99)) == report["latencyUs"]?.objectValue?["p99"]?.intValue)

        // Beside it, the same percentiles in HdrHistogram's text format (milliseconds).
        let percentiles = try String(contentsOfFile: directory.url.appendingPathComponent("run.hgrm").path,
                                     encoding: .utf8)
        #expect(percentiles.hasPrefix("       Value     Percentile TotalCount 1/(1-Percentile)"))
        #expect(percentiles.contains("Total count    = \(String(repeating: " ", count: 12 - "\(histogram.totalCount)".count))\(histogram.totalCount)]"),
                "\(percentiles)")
        #expect(broker.stop() == 0)
    }

    @Test func aRunThatMostlyMeasuredTheRateLimiterSaysHowToRaiseIt() throws {
        // The broker's default --request-rate: a closed loop is refused far more than answered.
        let broker = try BrokerProcess()
        let outcome = try LSClient(broker: broker).run(
            ["load", "keepalive", "--devices", "2", "--in-flight", "8", "--duration", "1", "--warmup", "0"],
            timeout: .seconds(60))
        #expect(outcome.status == 0, "stderr:\n\(outcome.stderr)")
        #expect(outcome.stderr.contains("note: most requests were refused rate_limited ("), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("start the broker with --request-rate 0"), "\(outcome.stderr)")
        #expect(broker.stop() == 0)
    }
}
