import Foundation
import LifeSignalProtocol
import Testing

/// `lsbroker stats` against a running broker's operations endpoint.
@Suite("lsbroker stats", .serialized)
struct StatsCommandTests {
    @Test func summarizesARunningBroker() throws {
        let broker = try BrokerProcess(arguments: ["--metrics-port", "0"])
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        for _ in 0..<4 { _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)]) }
        let url = "http://127.0.0.1:\(try #require(broker.metricsPort))"

        let (status, output) = try runCommand(Binaries.broker, ["stats", "--metrics-url", url])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("connections    active 2") == true, "\(output)")
        #expect(lines.contains { $0.hasPrefix("  ping.send") && $0.contains(" 4 · p50 ") }, "\(output)")
        #expect(lines.contains { $0.hasPrefix("written        events") }, "\(output)")
        // The embedded store has no pool: no PostgreSQL line (a cluster's is in ClusterMetricsTests).
        #expect(!lines.contains { $0.hasPrefix("postgresql") }, "\(output)")

        let raw = try runCommand(Binaries.broker, ["stats", "--raw"], environment: ["LSBROKER_METRICS_URL": url])
        #expect(raw.output.contains(#"lifesignal_requests_total{op="ping.send",result="ok"} 4"#), "\(raw.output)")
    }

    @Test func aBrokerThatDoesNotAnswerIsAnError() throws {
        let (status, output) = try runCommand(Binaries.broker, ["stats", "--metrics-url", "http://127.0.0.1:1"])
        #expect(status == 1)
        #expect(output.contains("cannot read http://127.0.0.1:1/metrics"), "\(output)")
    }
}
