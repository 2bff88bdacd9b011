import Foundation
import LifeSignalBroker
import LifeSignalProtocol
import Testing

@testable import lsbroker

/// The operations endpoint (`--metrics-port`, issue 15) on the real broker: every answer counted
/// by op and result, the gauges read from the broker's state, health and readiness, and which
/// devices of a user are online.
@Suite("Operations endpoint", .serialized)
struct MetricsEndpointTests {
    let broker: BrokerProcess

    init() throws {
        broker = try BrokerProcess(arguments: ["--metrics-port", "0"])
    }

    private func scrape() throws -> PrometheusSamples {
        let answer = try broker.operations("/metrics")
        #expect(answer.status == 200)
        #expect(answer.contentType?.hasPrefix("text/plain; version=0.0.4") == true)
        return PrometheusSamples(parsing: answer.body)
    }

    private func requests(_ samples: PrometheusSamples, _ op: String, _ result: String) -> Int {
        Int(samples.total(MetricName.requests, ["op": op, "result": result]))
    }

    @Test func everyAnswerIsCountedByItsOpAndResult() throws {
        let alice = try Person("Alice", port: broker.port)
        let before = try scrape()
        #expect(requests(before, Op.register, "ok") == 1)
        #expect(requests(before, Op.hello, "ok") == 1)

        for _ in 0..<3 { _ = alice.ok(Op.keepalive) }
        #expect(alice.request(Op.contactsRemove, ["contactId": "u_nobody"])?.errorCode == .notFound)
        #expect(alice.request("no.such.op")?.errorCode == .unknownOp)
        let stranger = try RawConnection(port: broker.port)
        stranger.sendBytes(FrameEncoder.frame(body: Array("[1]".utf8)))
        #expect(stranger.next()?.errorCode == .badJSON)
        #expect(stranger.request(Op.pingSend)?.errorCode == .unauthenticated)

        let after = try scrape()
        #expect(requests(after, Op.keepalive, "ok") - requests(before, Op.keepalive, "ok") == 3)
        #expect(requests(after, Op.contactsRemove, "not_found") == 1)
        // An op no version has is counted as `unknown`: a client cannot make new series.
        #expect(requests(after, "unknown", "unknown_op") == 1)
        #expect(after.matching(MetricName.requests, ["op": "no.such.op"]).isEmpty)
        #expect(requests(after, "invalid", "bad_json") == 1)
        #expect(requests(after, Op.pingSend, "unauthenticated") == 1)
        // Each answer has its latency observed under its op.
        let keepalives = after.total(MetricName.requestDuration + "_count", ["op": Op.keepalive])
        #expect(Int(keepalives) == requests(after, Op.keepalive, "ok"))
    }

    /// Pipelined writes wait for their commit while the reads after them are answered at once,
    /// held in order: every answer is still counted under its own request's op.
    @Test func pipelinedAnswersAreCountedUnderTheirOwnOps() throws {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        let before = try scrape()
        let ping: (op: String, fields: JSONObject) = (Op.pingSend, ["contactId": .string(alice.id)])
        let rids = bob.phone.sendPipelined([
            ping, (Op.keepalive, [:]), ping, (Op.contactsRemove, ["contactId": "u_nobody"]), (Op.devicesList, [:]), ping,
        ])
        for rid in rids { #expect(bob.phone.response(to: rid) != nil) }
        let after = try scrape()
        func delta(_ op: String, _ result: String) -> Int { requests(after, op, result) - requests(before, op, result) }
        #expect(delta(Op.pingSend, "ok") == 3)
        #expect(delta(Op.keepalive, "ok") == 1)
        #expect(delta(Op.contactsRemove, "not_found") == 1)
        #expect(delta(Op.devicesList, "ok") == 1)
    }

    @Test func theGaugesAreTheBrokersStateWhenScraped() throws {
        let alice = try Person("Alice", port: broker.port, devices: 2)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        let waiting = try RawConnection(port: broker.port)
        defer { withExtendedLifetime(waiting) {} }
        #expect(try eventually {
            let samples = try scrape()
            return samples.total(MetricName.devicesOnline) == 3
                && samples.total(MetricName.connections, ["phase": "active"]) == 3
                && samples.total(MetricName.connections, ["phase": "awaiting_hello"]) == 1
                && samples.total(MetricName.usersLoaded) == 2
        })

        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        let samples = try scrape()
        // A ping stores one notification, and events for both (PROTOCOL §5).
        #expect(samples.total(MetricName.notificationsWritten) >= 1)
        #expect(samples.total(MetricName.eventsWritten) >= 3)
        #expect(samples.total(MetricName.commitBatchSize + "_count") >= 1)
        #expect(samples.total(MetricName.storeBacklog) == 0)
        #expect(samples.matching(MetricName.postgresPoolSize).isEmpty)
        #expect(samples.matching(MetricName.postgresLeasesInUse).isEmpty)

        #expect(alice.devices[1].request(Op.bye)?.okFields != nil)
        #expect(try eventually { try scrape().total(MetricName.devicesOnline) == 2 })
    }

    /// Every family the exposition declares says what it counts, right before its `# TYPE` line.
    @Test func everyMetricHasItsHelpLine() throws {
        _ = try Person("Alice", port: broker.port)
        let lines = try broker.operations("/metrics").body.split(separator: "\n").map(String.init)
        let types = lines.indices.filter { lines[$0].hasPrefix("# TYPE ") }
        #expect(types.count >= 15)
        for index in types {
            let name = lines[index].split(separator: " ")[2]
            #expect(index > 0 && lines[index - 1] == "# HELP \(name) \(MetricName.help[String(name)] ?? "?")",
                    "\(name) has no help line")
        }
    }

    @Test func healthAndReadiness() throws {
        let health = try broker.operations("/healthz")
        #expect(health.status == 200)
        #expect(health.body == "ok\n")
        let ready = try broker.operations("/readyz")
        #expect(ready.status == 200)
        #expect(ready.body.contains("accepting: yes"))
        #expect(ready.body.contains("store: ok"))
        #expect(try broker.operations("/nothing").status == 404)
    }

    @Test func theOnlineDevicesOfAUser() throws {
        let alice = try Person("Alice", port: broker.port, devices: 2)
        let online = try JSONValue.parse(Array(broker.operations("/v1/users/\(alice.id)/online").body.utf8))
        #expect(online == ["user": .string(alice.id), "devices": ["device-0", "device-1"]])
        let nobody = try JSONValue.parse(Array(broker.operations("/v1/users/u_nobody/online").body.utf8))
        #expect(nobody.objectValue?["devices"] == [])
    }

    @Test func aBrokerWithoutMetricsPortServesNoEndpoint() throws {
        let plain = try BrokerProcess()
        #expect(plain.metricsPort == nil)
        #expect(!(plain.output?.text.contains("serving metrics") ?? true))
    }
}
