import Foundation
import LifeSignalBroker
import LifeSignalProtocol
import Testing

/// deploy/prometheus and deploy/grafana name only metrics the broker exports, and scrape the port
/// the systemd unit gives the broker.
@Suite struct MonitoringFilesTests {
    private func text(_ path: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every `lifesignal_…` name in `text`, without a histogram's suffixes.
    private func metricNames(in text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: "lifesignal_[a-z_]+")
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).map { match in
            var name = String(text[Range(match.range, in: text)!])
            for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) && !MetricName.all.contains(name) {
                name.removeLast(suffix.count)
            }
            return name
        })
    }

    @Test(arguments: ["deploy/grafana/lifesignal-dashboard.json", "deploy/prometheus/lifesignal-rules.yml"])
    func namesOnlyMetricsTheBrokerExports(path: String) throws {
        let names = metricNames(in: try text(path))
        #expect(names.count >= 5)
        #expect(names.subtracting(MetricName.all).isEmpty, "\(names.subtracting(MetricName.all).sorted())")
    }

    @Test func theDashboardIsJSONWithAPanelPerFigure() throws {
        let dashboard = try JSONValue.parse(Array(try text("deploy/grafana/lifesignal-dashboard.json").utf8))
        let panels = dashboard.objectValue?["panels"]?.arrayValue ?? []
        #expect(panels.count >= 10)
        let shown = metricNames(in: try text("deploy/grafana/lifesignal-dashboard.json"))
        // Every figure the broker exports is on it.
        #expect(Set(MetricName.all).subtracting(shown).isEmpty, "\(Set(MetricName.all).subtracting(shown).sorted())")
    }

    @Test func prometheusScrapesThePortTheUnitGivesTheBroker() throws {
        let unit = try text("deploy/lsbroker.service")
        let port = try #require(unit.split(separator: "\n").first { $0.hasPrefix("Environment=LSBROKER_METRICS_PORT=") }?
            .split(separator: "=").last)
        #expect(try text("deploy/prometheus/prometheus.yml").contains("127.0.0.1:\(port)"))
    }
}
