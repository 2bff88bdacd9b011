import Foundation
import LifeSignalClient
import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules
import LifeSignalStoreSQLite
import Testing

/// A store that cannot read a user is a broker fault (`internal`, §9), never an answer about the
/// user: not `unauthenticated` (which would also send a client with the right token away for
/// good), not `not_found`, and a missed check-in it could not process is processed later.
/// The time limit guards against a hang and is longer than a sanitized run, whose blocking
/// integration tests can hold the cooperative pool, and so these async tests, for minutes.
@Suite(.timeLimit(.minutes(20)))
struct StoreReadFailureTests {
    func register(_ name: String, on broker: InProcessBroker) async throws -> Registration {
        try await LifeSignalClient.register(host: "127.0.0.1", port: broker.port, name: name)
    }

    func client(_ registration: Registration, on broker: InProcessBroker, device: String = "phone") throws
        -> LifeSignalClient
    {
        try LifeSignalClient(configuration: ClientConfiguration(
            port: broker.port, userID: registration.user.id, token: registration.token, deviceID: device))
    }

    @Test func aHelloWhoseUserCannotBeLoadedIsInternalAndCanBeRetried() async throws {
        let broker = try InProcessBroker()
        defer { broker.stop() }
        let alice = try await register("Alice", on: broker)
        broker.store.failing.withLock { $0.users = [alice.user.id] }
        let refused = try client(alice, on: broker)
        await #expect(throws: LifeSignalClientError.server(ProtocolError(.internal, "the user could not be loaded; try again"))) {
            try await refused.connect()
        }
        await refused.close()
        #expect(broker.store.failing.withLock { $0.failed } >= 1)

        broker.store.failing.withLock { $0.users = [] }
        let phone = try client(alice, on: broker)
        let hello = try await phone.connect()
        #expect(hello.user.id == alice.user.id)
        await phone.close()
    }

    @Test func addingAContactWhoCannotBeLoadedIsInternalAndChangesNothing() async throws {
        let broker = try InProcessBroker()
        defer { broker.stop() }
        let alice = try await register("Alice", on: broker)
        let bob = try client(try await register("Bob", on: broker), on: broker)
        try await bob.connect()
        broker.store.failing.withLock { $0.users = [alice.user.id] }
        await #expect(throws: LifeSignalClientError.server(
            ProtocolError(.internal, "a user could not be loaded; nothing was changed"))) {
            try await bob.addContact(qrCode: alice.user.qrCode, isResponder: false, isDependent: true)
        }
        #expect(try await bob.listContacts().isEmpty)

        broker.store.failing.withLock { $0.users = [] }
        let contact = try await bob.addContact(qrCode: alice.user.qrCode, isResponder: false, isDependent: true)
        #expect(contact.id == alice.user.id)
        await bob.close()
    }

    /// A broker that starts while its store cannot be read schedules the pending deadlines once it
    /// can: a check-in missed while it was down is still told to the responders.
    @Test func pendingDeadlinesThatCannotBeReadAtStartAreReadAgain() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deadlines-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let alice = User(id: "u_alice", name: "Alice", qrCode: "qr_alice", checkInIntervalSec: 60, lastCheckInAt: 1_000,
                         checkInDeadline: 61_000, createdAt: 0)
        let bob = User(id: "u_bob", name: "Bob", qrCode: "qr_bob", checkInIntervalSec: 60, createdAt: 0)
        let watched = ContactRecord(userID: "u_bob", contactID: "u_alice", isResponder: false, isDependent: true,
                                    addedAt: 0)
        let prepared = try SQLiteStore(directory: directory) { $0() }
        try await prepared.commit([.createUser(alice, tokenHash: [0]), .createUser(bob, tokenHash: [0]),
                                   .upsertContact(watched), .upsertContact(watched.mirrored)])
        prepared.close()

        let broker = try InProcessBroker(directory: directory, prepare: {
            $0.failingDeadlineLoads.withLock { $0.left = .max }
        })
        defer { broker.stop() }
        #expect(await poll { broker.store.failingDeadlineLoads.withLock { $0.failed } >= 2 })
        // Not ready while the deadlines are not scheduled: no device should be sent here.
        let unready = await broker.broker.readiness(timeout: .seconds(120))
        #expect(!unready.isReady && !unready.deadlinesScheduled)
        #expect(unready.report.contains("deadlines: not scheduled yet"))
        broker.store.failingDeadlineLoads.withLock { $0.left = 0 }
        #expect(await poll {
            (try? await broker.store.base.accounts(of: ["u_alice"]))?["u_alice"]?.user.isNonResponsive == true
        }, "the missed check-in was never processed")
        let told = try await broker.store.base.notifications(of: "u_bob", before: nil, limit: 10, history: 0)
        #expect(told?.map(\.type) == [.nonResponsive])
        #expect(try await broker.store.base.pendingDeadlines().isEmpty)
    }

    @Test func aMissedCheckInWhoseUserCannotBeLoadedIsProcessedOnceTheStoreRecovers() async throws {
        let broker = try InProcessBroker { $0.minCheckInIntervalSec = 1 }
        defer { broker.stop() }
        // The deadline has to find Alice unloaded. A test starved of threads (as under TSan) may
        // see her unloaded only after her deadline, which then found her loaded and proved
        // nothing: such a try is started over with new users and a longer interval.
        for interval: Int64 in [10, 20, 40] {
            if try await missedCheckInOfAnUnloadableUser(on: broker, intervalSec: interval) { return }
        }
        Issue.record("Alice was never unloaded before her deadline")
    }

    /// One try; false if Alice was not seen unloaded before her deadline could fire.
    func missedCheckInOfAnUnloadableUser(on broker: InProcessBroker, intervalSec: Int64) async throws -> Bool {
        let aliceRegistration = try await register("Alice", on: broker)
        let alice = try client(aliceRegistration, on: broker)
        let bob = try client(try await register("Bob", on: broker), on: broker)
        try await alice.connect()
        try await bob.connect()
        _ = try await bob.addContact(qrCode: aliceRegistration.user.qrCode, isResponder: false, isDependent: true)
        try await alice.updateProfile(checkInIntervalSec: intervalSec)
        // Set before the check-in: her session stays loaded until she goes, so nothing loads her
        // before, and the failure is in place whenever the deadline comes.
        broker.store.failing.withLock { $0 = ([aliceRegistration.user.id], 0) }
        let checkedInNoEarlierThan = ContinuousClock.now
        try await alice.checkIn()
        await alice.close()
        #expect(await poll { (try? await broker.isLoaded(aliceRegistration.user.id)) == false }, "Alice was not unloaded")
        // A second's margin for the broker's clock against this one.
        guard ContinuousClock.now < checkedInNoEarlierThan + .seconds(intervalSec - 1) else {
            broker.store.failing.withLock { $0 = ([], 0) }
            await bob.close()
            return false
        }

        #expect(await poll { broker.store.failing.withLock { $0.failed } >= 2 }, "the deadline was not retried")
        #expect(await bob.state?.notifications.contains { $0.type == .nonResponsive } == false)
        broker.store.failing.withLock { $0.users = [] }
        #expect(await poll { await bob.state?.notifications.contains { $0.type == .nonResponsive } == true })
        #expect(await bob.state?.contacts[aliceRegistration.user.id]?.isNonResponsive == true)
        await bob.close()
        return true
    }
}
