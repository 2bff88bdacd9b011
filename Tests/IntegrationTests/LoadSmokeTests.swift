import Foundation
import LifeSignalProtocol
import Testing

/// `lsclient load` scenarios against the real broker: each sets its devices up, runs, reports and
/// exits cleanly. No timing is asserted (ARCHITECTURE.md, "Measured, not asserted"): figures belong
/// in docs/BENCHMARKS.md.
@Suite("Load generator smoke test", .serialized)
struct LoadSmokeTests {
    @Test func keepaliveRunReportsResponsesAndNoErrors() throws {
        // Each device sends as fast as it is answered, far over the default 200 requests/s.
        let broker = try BrokerProcess(arguments: ["--request-rate", "0"])
        let report = try runReport(
            ["load", "keepalive", "--devices", "5", "--in-flight", "4", "--duration", "1", "--warmup", "0",
             "--broker-pid", "\(broker.pid)", "--json"],
            on: broker, timeout: .seconds(60))
        #expect(report.string(at: "scenario") == "keepalive")
        #expect(report.int(at: "devices") == 5)
        #expect(report.int(at: "inFlight") == 4)
        #expect((report.int(at: "responses") ?? 0) > 0)
        #expect(report["errors"]?.objectValue?.isEmpty == true)
        #expect(report.int(at: "disconnects") == 0)
        #expect(report.int(at: "latencyUs", "p99") != nil)
        #expect(report.int(at: "broker", "pid") == Int64(broker.pid))

        // Every device said bye: the broker is still healthy and stops cleanly.
        #expect(broker.stop() == 0)
    }

    @Test func pingsRunDeliversNotificationsWithNoErrors() throws {
        let broker = try BrokerProcess()
        let report = try runReport(
            ["load", "pings", "--pairs", "2", "--rate", "50", "--duration", "1", "--warmup", "0",
             "--broker-pid", "\(broker.pid)", "--json"],
            on: broker, timeout: .seconds(60))
        #expect(report.string(at: "scenario") == "pings")
        #expect(report.int(at: "devices") == 4)
        #expect(report.int(at: "pairs") == 2)
        #expect(report.int(at: "rate") == 50)
        #expect((report.int(at: "sent") ?? 0) > 0)
        #expect((report.int(at: "delivered") ?? 0) > 0)
        #expect(report["errors"]?.objectValue?.isEmpty == true)
        #expect(report.int(at: "disconnects") == 0)
        #expect(report.int(at: "latencyUs", "p99.9") != nil)
        // What the broker wrote to storage in the window (/proc/PID/io); 0 only on a tmpfs.
        #expect(report.int(at: "broker", "storageWrittenBytes") != nil)
        #expect(broker.stop() == 0)
    }

    @Test func idleRunReportsTheBrokersMemoryPerDevice() throws {
        let broker = try BrokerProcess()
        let report = try runReport(
            ["load", "idle", "--devices", "6", "--keepalive-interval", "0.2", "--duration", "1", "--warmup", "0",
             "--device-offset", "100", "--broker-pid", "\(broker.pid)", "--json"],
            on: broker, timeout: .seconds(60))
        #expect(report.string(at: "scenario") == "idle")
        #expect(report.int(at: "devices") == 6)
        #expect(report.int(at: "keepaliveIntervalMs") == 200)
        #expect((report.int(at: "responses") ?? 0) > 0)
        for key in ["brokerRssBeforeSetupKiB", "brokerRssOnlineKiB", "brokerRssDeltaKiB", "brokerRssPerDeviceKiB",
                    "brokerAnonymousPerDeviceBytes"] {
            #expect(report[key]?.doubleValue != nil, "\(key) in \(report)")
        }
        #expect(report["errors"]?.objectValue?.isEmpty == true)
        #expect(report.int(at: "disconnects") == 0)
        #expect(broker.stop() == 0)
    }

    @Test func idleRunWithoutBrokerPidSaysTheMemoryWasNotMeasured() throws {
        let broker = try BrokerProcess()
        let outcome = try LSClient(broker: broker).run(
            ["load", "idle", "--devices", "2", "--duration", "0.5", "--warmup", "0"], timeout: .seconds(60))
        #expect(outcome.status == 0, "stderr:\n\(outcome.stderr)")
        #expect(outcome.stdout.contains("| lsbroker RSS growth per online device | not measured (no --broker-pid) |"),
                "stdout:\n\(outcome.stdout)")
        #expect(outcome.stdout.contains("| lsbroker anonymous memory growth per online device | not measured (no --broker-pid) |"),
                "stdout:\n\(outcome.stdout)")
        #expect(broker.stop() == 0)
    }

    @Test func stormCatchUpsAreExact() throws {
        let broker = try BrokerProcess()
        let report = try runReport(
            ["load", "storm", "--devices", "6", "--updates", "3", "--concurrency", "4", "--duration", "30",
             "--broker-pid", "\(broker.pid)", "--json"],
            on: broker, timeout: .seconds(90))
        #expect(report.string(at: "scenario") == "storm")
        #expect(report.int(at: "devices") == 6)
        #expect(report.int(at: "updates") == 3)
        #expect(report.int(at: "reconnected") == 6)
        #expect(report.int(at: "notReconnected") == 0)
        #expect(report.int(at: "responses") == 6)  // one hello each
        // Each user missed its own 3 updates and its partner's 3, all replayed.
        #expect(report.int(at: "eventsMissedOffline") == 36)
        #expect(report.int(at: "eventsReplayed") == 36)
        #expect(report.int(at: "snapshots") == 0)
        #expect(report.int(at: "missed") == 0)
        #expect(report.int(at: "repeated") == 0)
        #expect(report.int(at: "latencyUs", "p99") != nil)
        #expect(report["errors"]?.objectValue?.isEmpty == true)
        #expect(report.int(at: "disconnects") == 0)
        #expect(broker.stop() == 0)
    }

    @Test func stormPastTheRetentionCatchesUpWithSnapshots() throws {
        // Retention is "at least" (PROTOCOL §6; this broker prunes in steps): 100 missed events
        // against a retention of 1 leave every resume point behind.
        let broker = try BrokerProcess(arguments: ["--event-retention", "1"])
        let report = try runReport(
            ["load", "storm", "--devices", "4", "--updates", "50", "--duration", "30", "--json"],
            on: broker, timeout: .seconds(90))
        #expect(report.int(at: "reconnected") == 4)
        #expect(report.int(at: "snapshots") == 4)
        #expect(report.int(at: "eventsReplayed") == 0)
        #expect(report.int(at: "missed") == 0)
        #expect(report.int(at: "repeated") == 0)
        #expect(broker.stop() == 0)
    }

    @Test func fanoutRunDeliversToEveryResponderWithNoErrors() throws {
        let broker = try BrokerProcess()
        let report = try runReport(
            ["load", "fanout", "--dependents", "2", "--responders", "3", "--rate", "20", "--duration", "1",
             "--warmup", "0", "--broker-pid", "\(broker.pid)", "--json"],
            on: broker, timeout: .seconds(60))
        #expect(report.string(at: "scenario") == "fanout")
        #expect(report.int(at: "devices") == 8)
        #expect(report.int(at: "dependents") == 2)
        #expect(report.int(at: "responders") == 3)
        #expect(report.int(at: "rate") == 20)
        #expect((report.int(at: "sent") ?? 0) > 0)
        #expect((report.int(at: "delivered") ?? 0) > 0)
        #expect(report["errors"]?.objectValue?.isEmpty == true)
        #expect(report.int(at: "disconnects") == 0)
        #expect(report.int(at: "latencyUs", "p99.9") != nil)
        #expect(broker.stop() == 0)
    }

    @Test func floodConnectionsAreClosedAtTheHelloTimeout() throws {
        let broker = try BrokerProcess(arguments: ["--hello-timeout-ms", "300"])
        let report = try runReport(
            ["load", "flood", "--connections", "5", "--duration", "3", "--broker-pid", "\(broker.pid)", "--json"],
            on: broker, timeout: .seconds(60))
        #expect(report.string(at: "scenario") == "flood")
        #expect(report.int(at: "connections") == 5)
        #expect(report.int(at: "connected") == 5)
        #expect(report.int(at: "closedByBroker") == 5)
        #expect(report.int(at: "openAtEnd") == 0)
        #expect(report.int(at: "brokerErrors", "unauthenticated") == 5)
        #expect(report.int(at: "closedAfterMs", "max") != nil)
        #expect(report["errors"]?.objectValue?.isEmpty == true)
        #expect(broker.stop() == 0)
    }

    @Test func floodHoldsConnectionsOpenWithinTheHelloTimeout() throws {
        let broker = try BrokerProcess()
        let report = try runReport(
            ["load", "flood", "--connections", "5", "--duration", "1", "--json"],
            on: broker, timeout: .seconds(60))
        #expect(report.int(at: "connected") == 5)
        #expect(report.int(at: "closedByBroker") == 0)
        #expect(report.int(at: "openAtEnd") == 5)
        #expect(report["errors"]?.objectValue?.isEmpty == true)
        #expect(broker.stop() == 0)
    }

    @Test func setupFailureExitsNonZeroWithAMessage() throws {
        let broker = try BrokerProcess()
        broker.stop()  // nothing listens on its port any more
        let outcome = try LSClient(broker: broker).run(
            ["load", "keepalive", "--devices", "3", "--duration", "1", "--warmup", "0"], timeout: .seconds(60))
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("set-up failed"), "stderr:\n\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test func failoverMovesTheKilledBrokersDevicesWithNothingMissedOrRepeated() throws {
        let cluster = try TestCluster(brokers: 2)
        let report = try runReport(
            ["load", "failover", "--devices", "8", "--updates", "3", "--duration", "60",
             "--kill-pid", "\(cluster.brokers[0].pid)", "--json"],
            on: cluster.brokers, timeout: .seconds(90))
        #expect(report.string(at: "scenario") == "failover")
        // Devices 0, 2, 4 and 6 were on the killed broker.
        #expect(report.int(at: "moved") == 4)
        #expect(report.int(at: "resumed") == 4)
        #expect(report.int(at: "updatesAnswered") == 12)
        #expect(report.int(at: "missed") == 0)
        #expect(report.int(at: "repeated") == 0)
        #expect(report.int(at: "latencyUs", "p99") != nil)
    }

    /// Runs `lsclient load` to a clean exit and returns its `--json` report: stdout is exactly one
    /// JSON document (progress goes to stderr).
    private func runReport(
        _ arguments: [String], on broker: BrokerProcess, timeout: Duration,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONObject {
        try runReport(arguments, on: [broker], timeout: timeout, sourceLocation: sourceLocation)
    }

    private func runReport(
        _ arguments: [String], on brokers: [BrokerProcess], timeout: Duration,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONObject {
        let outcome = try LSClient(brokers: brokers).run(arguments, timeout: timeout)
        #expect(outcome.status == 0, "stderr:\n\(outcome.stderr)", sourceLocation: sourceLocation)
        return try #require(JSONLine.parse(outcome.stdout), "stdout:\n\(outcome.stdout)",
                            sourceLocation: sourceLocation)
    }
}
