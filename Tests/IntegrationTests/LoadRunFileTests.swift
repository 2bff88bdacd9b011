import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
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
        let histogramJSON = histogramValue.serialized()
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

    /// `load flood` times no request: its file holds its report and an empty latency histogram
    /// (whose UInt64 fields must survive the file), and `load compare` reads two of them.
    @Test func aFloodRunIsKeptAndComparedToo() throws {
        let broker = try BrokerProcess(arguments: ["--hello-timeout-ms", "300"])
        let directory = TemporaryDirectory("flood-run")
        let paths = ["few", "more"].map { directory.url.appendingPathComponent("\($0).json").path }
        for (path, connections) in zip(paths, [5, 10]) {
            let outcome = try LSClient(broker: broker).run(
                ["load", "flood", "--connections", "\(connections)", "--duration", "1", "--out", path], timeout: .seconds(60))
            #expect(outcome.status == 0, "stderr:\n\(outcome.stderr)")
        }
        let run = try #require(try JSONValue.parse(Array(Data(contentsOf: URL(fileURLWithPath: paths[0])))).objectValue)
        #expect(run["report"]?.objectValue?["scenario"]?.stringValue == "flood")
        #expect(run["settings"]?.objectValue?["connections"]?.intValue == 5)

        let compared = try LSClient(broker: broker).run(["load", "compare", paths[0], paths[1]])
        #expect(compared.status == 0, "\(compared.stderr)")
        #expect(compared.stdout.contains("| connections made | 5 | 10 | 2.00× |"), "\(compared.stdout)")
        // How many the broker closed within the second depends on the machine's pace: the row is there.
        #expect(compared.stdout.contains("| closed by the broker | "), "\(compared.stdout)")
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

    @Test func keptRunsArePlottedAndCompared() throws {
        let broker = try BrokerProcess()
        let client = LSClient(broker: broker)
        let directory = TemporaryDirectory("load-plot")
        func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }
        for (name, rate) in [("slow", "20"), ("fast", "80")] {
            let outcome = try client.run(
                ["load", "pings", "--pairs", "2", "--rate", rate, "--duration", "2", "--warmup", "0",
                 "--out", path("\(name).json")], timeout: .seconds(60))
            #expect(outcome.status == 0, "stderr:\n\(outcome.stderr)")
        }

        let plotted = try client.run(["load", "plot", path("slow.json"), path("fast.json"), "-o", path("plot.svg")])
        #expect(plotted.status == 0, "stderr:\n\(plotted.stderr)")
        let svg = try Data(contentsOf: URL(fileURLWithPath: path("plot.svg")))
        let lines = try SVGLines(svg)
        // Three charts, each with a line per run, in the order given.
        #expect(lines.titles == ["Latency by percentile", "Throughput (answered, or delivered end to end, per second)",
                                 "p99 latency of each second"])
        #expect(lines.runs == ["slow", "fast", "slow", "fast", "slow", "fast"])
        #expect(lines.pointCounts.allSatisfy { $0 > 0 }, "\(lines.pointCounts)")

        let compared = try client.run(["load", "compare", path("slow.json"), path("fast.json")])
        #expect(compared.status == 0, "stderr:\n\(compared.stderr)")
        #expect(compared.stdout.hasPrefix("| figure | slow | fast | fast / slow |"), "\(compared.stdout)")
        let delivered = compared.stdout.split(separator: "\n").first { $0.hasPrefix("| delivered/s |") }
        #expect(delivered?.hasSuffix("× |") == true, "\(compared.stdout)")

        let asJSON = try client.run(["load", "compare", path("slow.json"), path("fast.json"), "--json"])
        let figures = JSONLine.parse(asJSON.stdout)?["figures"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let rate = figures.first { $0["figure"]?.stringValue == "deliveredPerSec" }
        let (slow, fast) = (rate?["a"]?.doubleValue ?? 0, rate?["b"]?.doubleValue ?? 0)
        #expect(slow > 0 && fast > slow, "\(asJSON.stdout)")

        let notARun = try client.run(["load", "compare", path("plot.svg"), path("fast.json")])
        #expect(notARun.status == 1)
        #expect(notARun.stderr.contains("cannot read the load run"), "\(notARun.stderr)")
        #expect(broker.stop() == 0)
    }
}

/// What a plot's SVG holds: each chart's title and each line's run and number of points, read
/// with an XML parser (so the document is well formed).
private final class SVGLines: NSObject, XMLParserDelegate {
    private(set) var titles: [String] = []
    private(set) var runs: [String] = []
    private(set) var pointCounts: [Int] = []
    private var inTitle = false

    init(_ data: Data) throws {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String]) {
        inTitle = name == "text" && attributes["font-weight"] == "bold"
        guard name == "polyline", let run = attributes["data-run"] else { return }
        runs.append(run)
        pointCounts.append(attributes["points"]?.split(separator: " ").count ?? 0)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { titles.append(string) }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        inTitle = false
    }
}
