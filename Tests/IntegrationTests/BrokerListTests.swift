import Foundation
import Testing

/// `lsclient --broker A,B` moves past a broker that is down or frozen (accepts and never answers),
/// for one-shot commands and `watch` (issue 24, items 14 and 18). The frozen broker is a port that
/// listens and never answers (`SilentListener`).
@Suite("a broker list with one down or frozen", .serialized)
struct BrokerListTests {
    /// Short beside the test, and long enough for a broker under a sanitizer to answer in.
    static let timeout = ["--timeout-ms", "5000"]

    /// A broker, and Alice registered on it.
    static func aliceOnABroker() throws -> (BrokerProcess, LSClient) {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        try cli.register("Alice")
        return (broker, cli)
    }

    @Test func watchMovesPastABrokerThatIsDown() throws {
        let (broker, cli) = try Self.aliceOnABroker()
        let brokers = "127.0.0.1:\(try SilentListener.closedPort()),\(broker.address)"
        let watch = try cli.start(["--profile", "alice", "--broker", brokers, "watch"])
        #expect(watch.output.waitForLine { $0.hasPrefix("connected as Alice") } != nil, "\(watch.output.text)")
        watch.stop()
    }

    @Test func aCheckInMovesPastAFrozenBroker() throws {
        let (broker, cli) = try Self.aliceOnABroker()
        let frozen = try SilentListener()
        let checkin = try cli.run(
            ["--profile", "alice", "--broker", "\(frozen.address),\(broker.address)", "checkin"] + Self.timeout)
        #expect(checkin.status == 0, "\(checkin.stderr)")
        #expect(checkin.stdout.hasPrefix("checked in"), "\(checkin.stdout)")
    }

    @Test func aCheckInWithOnlyAFrozenBrokerSaysSoAndExits() throws {
        let (_, cli) = try Self.aliceOnABroker()
        let frozen = try SilentListener()
        let checkin = try cli.run(["--profile", "alice", "--broker", frozen.address, "checkin", "--timeout-ms", "1000"])
        #expect(checkin.status == 2)
        #expect(checkin.stderr == "error: timed_out: no answer to hello from \(frozen.address) within 1000 ms\n")
    }

    @Test func watchLeavesAFrozenBrokerForTheOneThatIsBack() throws {
        let (broker, cli) = try Self.aliceOnABroker()
        let frozen = try SilentListener()
        let watch = try cli.start(
            ["--profile", "alice", "--broker", "\(broker.address),\(frozen.address)", "watch"] + Self.timeout)
        #expect(watch.output.waitForLine { $0.hasPrefix("connected as Alice") } != nil, "\(watch.output.text)")

        // SIGKILL, then the same port and data. The watch goes to the frozen one at once, and must
        // leave it when hello goes unanswered.
        try broker.restart()
        #expect(eventually(timeout: .seconds(60)) {
            watch.output.lines.filter { $0.hasPrefix("connected as Alice") }.count == 2
        }, "\(watch.output.text)")
        watch.stop()
    }
}
