import Foundation
import LifeSignalClient
import LifeSignalProtocol
import Testing

/// Every missed deadline fires exactly once even when the store fails to write and recovers
/// (§8): neither a missed check-in whose write failed nor a check-in that was never stored
/// leaves the deadline scheduler believing something the store does not.
/// The time limit guards against a hang and is longer than a sanitized run, whose blocking
/// integration tests can hold the cooperative pool, and so these async tests, for minutes.
@Suite(.timeLimit(.minutes(20)))
struct StoreWriteFailureTests {
    /// Bob watches over Alice, whose check-in interval is `interval` seconds; both online.
    struct Cast {
        let broker: InProcessBroker
        let alice: LifeSignalClient
        let aliceID: String
        let bob: LifeSignalClient

        init(interval: Int64) async throws {
            broker = try InProcessBroker { $0.minCheckInIntervalSec = 1 }
            let alice = try await LifeSignalClient.register(host: "127.0.0.1", port: broker.port, name: "Alice")
            let bob = try await LifeSignalClient.register(host: "127.0.0.1", port: broker.port, name: "Bob")
            aliceID = alice.user.id
            self.alice = try LifeSignalClient(configuration: ClientConfiguration(
                port: broker.port, userID: alice.user.id, token: alice.token, deviceID: "phone"))
            self.bob = try LifeSignalClient(configuration: ClientConfiguration(
                port: broker.port, userID: bob.user.id, token: bob.token, deviceID: "phone"))
            try await self.alice.connect()
            try await self.bob.connect()
            _ = try await self.bob.addContact(qrCode: alice.user.qrCode, isResponder: false, isDependent: true)
            _ = try await self.alice.updateProfile(checkInIntervalSec: interval)
        }

        var missedCheckIns: Int {
            get async { await bob.state?.notifications.filter { $0.type == .nonResponsive }.count ?? 0 }
        }

        func close() async {
            await alice.close()
            await bob.close()
            broker.stop()
        }
    }

    @Test func aMissedCheckInWhoseWriteFailedFiresOnceTheStoreRecovers() async throws {
        let cast = try await Cast(interval: 2)
        // Set before the check-in: a test starved of threads may resume after the deadline.
        cast.broker.store.failingWrites.withLock {
            $0.users = [cast.aliceID]
            $0.onlyMarkingNonResponsive = true
        }
        _ = try await cast.alice.checkIn()
        #expect(await poll { cast.broker.store.failingWrites.withLock { $0.failed } >= 2 },
                "the missed check-in was not tried again while the store failed")
        #expect(await cast.missedCheckIns == 0)

        cast.broker.store.failingWrites.withLock { $0.users = [] }
        #expect(await poll { await cast.missedCheckIns == 1 }, "the missed check-in was dropped")
        try await Task.sleep(for: .seconds(2))
        #expect(await cast.missedCheckIns == 1, "the missed check-in fired more than once")
        await cast.close()
    }

    @Test func aCheckInThatWasNotStoredLeavesTheStoredDeadline() async throws {
        let cast = try await Cast(interval: 5)
        _ = try await cast.alice.checkIn()
        cast.broker.store.failingWrites.withLock { $0.users = [cast.aliceID] }
        // The second check-in is refused: the stored deadline is still the first one's.
        await #expect(throws: LifeSignalClientError.self) { _ = try await cast.alice.checkIn() }
        cast.broker.store.failingWrites.withLock { $0.users = [] }
        #expect(await poll { await cast.missedCheckIns == 1 }, "the stored deadline never fired")
        await cast.close()
    }

    /// `device.register` takes a token from its holder in the same step as it stores it: if that
    /// step is not stored, the holder still has the token, in memory as in the store.
    @Test func aTokenMoveThatWasNotStoredLeavesTheTokenWithItsHolder() async throws {
        let cast = try await Cast(interval: 3_600)
        try await cast.bob.registerDevice(token: "shared-token")
        cast.broker.store.failingWrites.withLock { $0.users = [cast.aliceID] }
        await #expect(throws: LifeSignalClientError.self) { try await cast.alice.registerDevice(token: "shared-token") }
        cast.broker.store.failingWrites.withLock { $0.users = [] }
        // Bob's devices as the broker has them now (his connection may be resuming meanwhile).
        #expect(await poll {
            (try? await cast.bob.listDevices().first { $0.device == "phone" }?.hasToken) == true
        }, "the holder lost a token that never moved")
        await cast.close()
    }
}
