import Foundation
import LifeSignalBroker
import LifeSignalProtocol
import Testing

@testable import lsbroker

/// Pushes are counted whichever gateway the broker uses: with the default one, which only
/// records them, `lsbroker stats` shows them as recorded.
@Suite("Push metrics", .serialized)
struct PushMetricsTests {
    @Test func theRecordingGatewayCountsWhatItRecorded() throws {
        let broker = try BrokerProcess(arguments: ["--metrics-port", "0"])
        let alice = try Person("Alice", port: broker.port, devices: 2)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        alice.register(token: "alice-token", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        #expect(try RecordedPushes.read(broker, user: alice.id).count == 1)

        // Counted off the loop, after the commit: wait for it.
        let recorded = try? eventually {
            Int(PrometheusSamples(parsing: try broker.operations("/metrics").body)
                .total(MetricName.pushes, ["result": "recorded"])) == 1
        }
        #expect(recorded == true)
        let metrics = try PrometheusSamples(parsing: broker.operations("/metrics").body)
        #expect(!metrics.matching(MetricName.pushBacklog).isEmpty)

        let url = "http://127.0.0.1:\(try #require(broker.metricsPort))"
        let (status, output) = try runCommand(Binaries.broker, ["stats", "--metrics-url", url])
        #expect(status == 0, "\(output)")
        #expect(output.contains("pushes         recorded 1 · backlog 0"), "\(output)")
    }
}
