import Foundation
@testable import LifeSignalBroker
import LifeSignalClient
import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalStoreSQLite
import LifeSignalUV
import Testing

/// Issue 24 item 10: on a full disk (simulated: every batch that would write fails with
/// SQLITE_FULL, as SQLite's do there, while reads still run) an offline user can still say hello
/// and read what is stored, while the broker says it is not ready.
/// The time limit guards against a hang and is longer than a sanitized run, whose blocking
/// integration tests can hold the cooperative pool, and so these async tests, for minutes.
@Suite(.timeLimit(.minutes(20)))
struct FullDiskStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)").path

    @Test func anOfflineUserSaysHelloAndReadsWhatIsStoredWhileTheDiskIsFull() async throws {
        let broker = try InProcessBroker()
        defer { broker.stop() }
        let aliceRegistration = try await LifeSignalClient.register(host: "127.0.0.1", port: broker.port, name: "Alice")
        let bobRegistration = try await LifeSignalClient.register(host: "127.0.0.1", port: broker.port, name: "Bob")
        let aliceID = aliceRegistration.user.id
        func client(_ registration: Registration, _ device: String) throws -> LifeSignalClient {
            try LifeSignalClient(configuration: ClientConfiguration(
                port: broker.port, userID: registration.user.id, token: registration.token, deviceID: device))
        }
        // Bob, Alice's responder, pings her: she has a notification, stored.
        let alice = try client(aliceRegistration, "phone")
        let bob = try client(bobRegistration, "phone")
        try await alice.connect()
        try await bob.connect()
        _ = try await alice.addContact(qrCode: bobRegistration.user.qrCode, isResponder: true, isDependent: false)
        _ = try await bob.sendPing(to: aliceID)
        #expect(await poll { (try? await alice.listNotifications().notifications.contains { $0.type == .ping }) == true })
        let stored = try await alice.listNotifications().notifications.map(\.id)
        await alice.close()
        await bob.close()
        #expect(await poll { (try? await broker.isLoaded(aliceID)) == false }, "Alice was never unloaded")

        broker.store.base.simulatedFullDisk.withLock { $0 = true }
        #expect(await !broker.broker.readiness().isReady, "ready on a disk that cannot take a commit")
        // Loading Alice trims her notifications (a write, which fails) and reads her (which does
        // not need room): she is let in, on the device she had and on a new one, and reads.
        for device in ["phone", "tablet"] {
            let phone = try client(aliceRegistration, device)
            let hello = try await phone.connect()
            #expect(hello.user.id == aliceID)
            let page = try await phone.listNotifications()
            #expect(page.notifications.map(\.id) == stored)
            #expect(page.notifications.contains { $0.type == .ping })
            // Still connected after the device's record could not be written: she reads again.
            let again = try await phone.listNotifications()
            #expect(again.notifications.map(\.id) == stored)
            await phone.close()
        }
        #expect(await !broker.broker.readiness().isReady)

        broker.store.base.simulatedFullDisk.withLock { $0 = false }
        #expect(await poll { await broker.broker.readiness().isReady }, "not ready once there was room")
    }

    /// The group commit answers a read even when the batch it shares with writes cannot commit.
    @Test func aReadInABatchThatCannotCommitIsAnswered() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(directory: directory) { $0() }
        defer { store.close() }
        let alice = User(id: Credentials.newUserID(), name: "Alice", phone: nil, qrCode: Credentials.newQRCode(),
                         checkInIntervalSec: 86_400, lastCheckInAt: nil, checkInDeadline: nil, isNonResponsive: false,
                         alert: nil, preferences: Preferences(push: true, mutedTypes: []), createdAt: 0)
        let created = await withCheckedContinuation { continuation in
            store.submit(StoreWrite(changes: [.createUser(alice, tokenHash: [0])])) { continuation.resume(returning: $0) }
        }
        _ = try created.get()

        store.simulatedFullDisk.withLock { $0 = true }
        let results = Locked<[Int: Result<StoreWriteResult, Error>]>([:])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done: @Sendable (Int, Result<StoreWriteResult, Error>) -> Void = { index, result in
                let all = results.withLock { $0[index] = result; return $0.count == 2 }
                if all { continuation.resume() }
            }
            let body: [UInt8] = Array("event".utf8)
            store.submitTogether([
                (StoreWrite(changes: [.appendEvent(userID: alice.id, seq: 1, body: body[...])]), { @Sendable in done(0, $0) }),
                (StoreWrite(changes: [], query: .user(id: alice.id)), { @Sendable in done(1, $0) }),
            ])
        }
        let (write, read) = results.withLock { ($0[0]!, $0[1]!) }
        #expect(throws: (any Error).self) { try write.get() }
        guard case .user(let stored?) = try read.get().queryResult else {
            Issue.record("the read was not answered")
            return
        }
        #expect(stored.user.id == alice.id)
    }
}
