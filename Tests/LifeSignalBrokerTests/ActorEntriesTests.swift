import LifeSignalClient
@testable import LifeSignalBroker
import LifeSignalProtocol
import Testing

/// How often a request enters an actor on the broker's loop (`onLoop` into a user's session): the
/// hops between sessions that one request costs, counted by the loop. Printed as a figure for
/// docs/BENCHMARKS.md, and held where it is: a ping takes 4 entries (ARCHITECTURE.md, "Life of a
/// request"), so one more per ping fails the test; the loop's timers add a small fraction over a run.
/// The time limit is a guard against a hang: beside the whole suite on two cores, a test waiting
/// for the concurrency pool went past 2 minutes.
@Suite(.timeLimit(.minutes(10)))
struct ActorEntriesTests {
    static let pings = 200

    @Test func aPingsEntriesIntoActorsAreCounted() async throws {
        let broker = try InProcessBroker()
        defer { broker.stop() }
        let (alice, bob) = (try await broker.person("Alice"), try await broker.person("Bob"))
        _ = try await bob.phone.addContact(qrCode: alice.registration.user.qrCode, isResponder: false, isDependent: true)
        _ = try await bob.phone.sendPing(to: alice.registration.user.id)  // warm: both sessions loaded

        let before = try await entries(of: broker)
        for _ in 0..<Self.pings { _ = try await bob.phone.sendPing(to: alice.registration.user.id) }
        let perPing = Double(try await entries(of: broker) - before) / Double(Self.pings)
        print("onLoop entries per ping (sender and recipient online, one at a time): \(perPing)")
        #expect(perPing >= 4 && perPing < 5, "onLoop entries per ping: \(perPing)")
        await alice.phone.close()
        await bob.phone.close()
    }

    private func entries(of broker: InProcessBroker) async throws -> UInt64 {
        try await broker.broker.onLoopAsync { $0.loopActorEntries() }
    }
}

extension Broker {
    func loopActorEntries() -> UInt64 { loop.actorEntries }
}
