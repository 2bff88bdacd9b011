import Foundation
import Testing

/// `watch` says what it does while the broker is away, and with `--wait` waits for a broker that is
/// not up yet (issue 11).
@Suite("watch while the broker is away", .serialized)
struct WatchReconnectTests {
    @Test func waitWaitsForABrokerStartedAfterIt() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        try cli.register("Alice")
        broker.stop()

        let watch = try cli.start(["--profile", "alice", "--device", "tablet", "watch", "--wait"])
        let waiting = watch.output.waitForLine { $0.hasPrefix("waiting for the broker (connection_failed: ") }
        #expect(waiting?.contains("next try at ") == true, "\(watch.output.text)")
        try broker.start()  // same port, same data
        #expect(watch.output.waitForLine { $0.hasPrefix("connected as Alice") } != nil, "\(watch.output.text)")
        watch.stop()
    }

    @Test func withoutWaitAnUnreachableBrokerIsAConnectionFailure() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        try cli.register("Alice")
        broker.stop()
        let watch = try cli.run(["--profile", "alice", "watch"])
        #expect(watch.status == 2)
        #expect(watch.stderr.hasPrefix("error: connection_failed: "))
    }

    @Test func aLostBrokerIsReportedWithTheNextTry() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        try cli.register("Alice")
        let watch = try cli.start(["--profile", "alice", "--device", "tablet", "watch"])
        #expect(watch.output.waitForLine { $0.hasPrefix("connected as Alice") } != nil)

        broker.stop(signal: SIGKILL)
        let lost = watch.output.waitForLine { $0.hasPrefix("disconnected at ") }
        #expect(lost?.hasSuffix("; reconnecting") == true, "\(watch.output.text)")
        #expect(watch.output.waitForLine { $0.hasPrefix("next try at ") } != nil, "\(watch.output.text)")
        // While it stays away, each failed try says so, and when the next one is.
        let failed = watch.output.waitForLine { $0.hasPrefix("try 1 failed (connection_failed: ") }
        #expect(failed?.contains("; next try at ") == true, "\(watch.output.text)")

        try broker.start()
        #expect(eventually { watch.output.lines.filter { $0.hasPrefix("connected as Alice") }.count == 2 },
                "\(watch.output.text)")
        watch.stop()
    }
}
