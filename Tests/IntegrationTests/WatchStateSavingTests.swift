import Foundation
import LifeSignalProtocol
import Testing

/// Issue 11: `watch` saves the device state once a catch-up is applied and after each burst of
/// events, not only on a clean exit, so that a watch killed with SIGKILL (no chance to save)
/// comes back without showing again what it showed, holding what the user's other devices hold.
@Suite("watch saves its state as it goes", .serialized)
struct WatchStateSavingTests {
    /// Issue 26 item 10: Ctrl-C ends a watch at once, with its state saved and a clean status
    /// (measured: 7–10 ms from SIGINT to exit; BENCHMARKS does not time it, a test must not).
    @Test func ctrlCEndsAWatchWithItsStateSaved() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        try cli.register("Alice")
        try cli.register("Bob")
        let watch = try cli.start(["--profile", "alice", "--device", "tablet", "--json", "watch"])
        try #require(watch.waitFor { $0.string(at: "type") == "connected" } != nil)
        #expect(try cli.run(["--profile", "bob", "contacts", "add", try cli.qrCode(of: "alice"), "--dependent"]).status == 0)
        let added = try #require(watch.waitFor { $0.string(at: "event") == EventName.notificationAdded })
        kill(watch.process.processIdentifier, SIGINT)
        #expect(watch.waitForExit() == 0)
        #expect(try cli.savedState("alice", device: "tablet")?.int(at: "lastSeq") ?? 0 >= added.int(at: "seq") ?? 1)
    }

    @Test func aKilledWatchComesBackWithoutShowingOldEventsAgain() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        try cli.register("Alice")
        try cli.register("Bob")
        let tablet = ["--profile", "alice", "--device", "tablet", "--json", "watch"]

        // Live: Bob adds Alice as his dependent, a burst of two events for her.
        let first = try cli.start(tablet)
        try #require(first.waitFor { $0.string(at: "type") == "connected" } != nil)
        let add = try cli.run(["--profile", "bob", "contacts", "add", try cli.qrCode(of: "alice"), "--dependent"])
        #expect(add.status == 0)
        let added = try #require(first.waitFor { $0.string(at: "event") == EventName.notificationAdded })
        let liveSeq = try #require(added.int(at: "seq"))
        // Then quiet: the burst gets saved without the watch exiting.
        #expect(try eventually { try cli.savedState("alice", device: "tablet")?.int(at: "lastSeq") == liveSeq })
        first.sigkill()
        #expect(try cli.savedState("alice", device: "tablet") == phoneState(cli))

        // Missed while down: Bob pings her. The next watch shows just that, and saves once caught up.
        #expect(try cli.run(["--profile", "bob", "ping", "alice"]).status == 0)
        let second = try cli.start(tablet)
        try #require(second.waitFor { $0.string(at: "type") == "connected" } != nil)
        let replayed = second.catchUp.compactMap { $0.int(at: "seq") }
        #expect(!replayed.isEmpty)
        #expect(replayed.allSatisfy { $0 > liveSeq })
        let caughtUpSeq = try #require(replayed.last)
        #expect(try eventually { try cli.savedState("alice", device: "tablet")?.int(at: "lastSeq") == caughtUpSeq })
        second.sigkill()

        // Nothing was missed since: the third watch replays nothing at all.
        let third = try cli.start(tablet)
        try #require(third.waitFor { $0.string(at: "type") == "connected" } != nil)
        #expect(third.catchUp.isEmpty, "replayed: \(third.catchUp)")
        #expect(try cli.savedState("alice", device: "tablet") == phoneState(cli))
        third.stop()
    }

    /// Alice's phone, brought up to date: what every device of hers should hold.
    private func phoneState(_ cli: LSClient) throws -> JSONObject? {
        #expect(try cli.run(["--profile", "alice", "--device", "phone", "keepalive"]).status == 0)
        return try cli.savedState("alice", device: "phone")
    }
}
