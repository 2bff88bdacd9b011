import Foundation
import LifeSignalBroker
import LifeSignalProtocol
import Testing

@testable import lsbroker

/// A cluster broker's operations endpoint: the same request accounting as the embedded broker,
/// plus its batches, its pool and the hints it receives from the others.
@Suite("Cluster: metrics", .serialized)
struct ClusterMetricsTests {
    @Test func batchesPoolAndHintsAreCounted() throws {
        let cluster = try TestCluster(brokers: 2, arguments: ["--metrics-port", "0"])
        let ports = cluster.ports
        let alice = try Person("Alice", port: ports[0])
        let bob = try Person("Bob", port: ports[1])
        alice.add(bob, responder: true, dependent: false)
        for _ in 0..<3 { _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)]) }
        _ = alice.phone.settle()

        let second = PrometheusSamples(parsing: try cluster.brokers[1].operations("/metrics").body)
        #expect(second.total(MetricName.requests, ["op": Op.pingSend, "result": "ok"]) == 3)
        #expect(second.total(MetricName.commitBatchSize + "_count") >= 3)
        #expect(second.total(MetricName.notificationsWritten) >= 3)
        #expect(second.total(MetricName.postgresPoolSize) >= 1)
        #expect(second.total(MetricName.postgresLeaseWait + "_count") >= 1)
        // Bob's pings reached Alice on the first broker through a hint (ARCHITECTURE.md, "The
        // cluster").
        #expect(try eventually {
            PrometheusSamples(parsing: try cluster.brokers[0].operations("/metrics").body)
                .total(MetricName.notifiesReceived) >= 1
        })
        let ready = try cluster.brokers[0].operations("/readyz")
        #expect(ready.status == 200, "\(ready.body)")

        let url = "http://127.0.0.1:\(try #require(cluster.brokers[1].metricsPort))"
        let (status, output) = try runCommand(Binaries.broker, ["stats", "--metrics-url", url])
        #expect(status == 0, "\(output)")
        #expect(output.split(separator: "\n").contains { $0.hasPrefix("postgresql     leases ") }, "\(output)")
    }
}
